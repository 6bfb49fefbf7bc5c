import { errorCodes } from '@aandenken/contract';
import { ApiError } from '../../../lib/api-client.ts';

export const messages = {
  notFound: 'Er is geen pagina gevonden met deze code. Controleer de code en probeer het opnieuw.',
  tooMany: 'Te veel pogingen. Wacht even en probeer het later opnieuw.',
  network: 'Er is geen verbinding met de server. Controleer je internetverbinding en probeer het opnieuw.',
  other: 'Er ging iets mis bij het openen van de pagina. Probeer het opnieuw.',
} as const;

/** The Dutch sentence under the field for a failed code lookup. */
export function accessCodeErrorMessage(error: unknown): string {
  if (!(error instanceof ApiError)) return messages.other;
  if (error.isNetworkError) return messages.network;
  if (error.status === 429) return messages.tooMany;
  const noPage: string[] = [errorCodes.accessCodeInvalid, errorCodes.notFound, errorCodes.memorialNotFound];
  if ((error.status === 404 || error.status === 400) && noPage.includes(error.code)) return messages.notFound;
  if (error.status === 400 && error.fields?.accessCode) return messages.notFound;
  return messages.other;
}
