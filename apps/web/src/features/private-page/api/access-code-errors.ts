import {
  ACCESS_CODE_MEMORIAL_LOCKED_MESSAGE,
  accessCodeRefusedSchema,
  errorCodes,
  type AccessCodeChallenge,
} from '@aandenken/contract';
import { ApiError } from '../../../lib/api-client.ts';

export const messages = {
  notFound: 'Er is geen pagina gevonden met deze code. Controleer de code en probeer het opnieuw.',
  tooMany: 'Te veel pogingen. Wacht even en probeer het later opnieuw.',
  challengeFailed: 'De controle in je browser is niet gelukt. Probeer het opnieuw.',
  network: 'Er is geen verbinding met de server. Controleer je internetverbinding en probeer het opnieuw.',
  other: 'Er ging iets mis bij het openen van de pagina. Probeer het opnieuw.',
} as const;

/** The Dutch sentence under the field for a failed code lookup. */
export function accessCodeErrorMessage(error: unknown): string {
  if (!(error instanceof ApiError)) return messages.other;
  if (error.isNetworkError) return messages.network;
  if (error.status === 429 && error.message === ACCESS_CODE_MEMORIAL_LOCKED_MESSAGE) return error.message;
  if (error.code === errorCodes.challengeRequired) return messages.challengeFailed;
  if (error.status === 429) return messages.tooMany;
  const noPage: string[] = [errorCodes.accessCodeInvalid, errorCodes.notFound, errorCodes.memorialNotFound];
  if ((error.status === 404 || error.status === 400) && noPage.includes(error.code)) return messages.notFound;
  if (error.status === 400 && error.fields?.accessCode) return messages.notFound;
  return messages.other;
}

/** The proof-of-work challenge the server asks to solve first (429 CHALLENGE_REQUIRED), if that is the error. */
export function challengeOf(error: unknown): AccessCodeChallenge | null {
  if (!(error instanceof ApiError) || error.code !== errorCodes.challengeRequired) return null;
  const parsed = accessCodeRefusedSchema.safeParse(error.body);
  return parsed.success ? (parsed.data.challenge ?? null) : null;
}
