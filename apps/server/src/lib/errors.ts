import { errorCodes, type ErrorCode } from '@aandenken/contract';

/** An error the client may see: status, stable code and a Dutch message. */
export class AppError extends Error {
  readonly statusCode: number;
  readonly code: ErrorCode | string;
  readonly fields?: Record<string, string>;
  /** More of the answer's body, for the few errors that carry something to act on (a challenge). */
  extra?: Record<string, unknown>;
  constructor(
    statusCode: number,
    code: ErrorCode | string,
    message: string,
    fields?: Record<string, string>,
  ) {
    super(message);
    this.statusCode = statusCode;
    this.code = code;
    if (fields !== undefined) this.fields = fields;
  }
}

export const notFound = (message = 'Niet gevonden.') => new AppError(404, errorCodes.notFound, message);
export const unauthorized = (message = 'Je moet ingelogd zijn om dit te doen.') =>
  new AppError(401, errorCodes.unauthorized, message);
export const forbidden = (message = 'Je hebt geen toegang tot deze handeling.') =>
  new AppError(403, errorCodes.forbidden, message);
export const conflict = (message: string) => new AppError(409, errorCodes.conflict, message);
export const badRequest = (message: string, fields?: Record<string, string>) =>
  new AppError(400, errorCodes.validation, message, fields);
/**
 * The address already got MAIL_PER_RECIPIENT_PER_DAY mails that someone else caused (lib/mail-outbox.ts).
 * Only for a caller who typed the address and is signed in; the change it came with is not made.
 */
export const recipientMailLimitReached = () =>
  new AppError(
    429,
    errorCodes.rateLimited,
    'Dit e-mailadres heeft vandaag al genoeg e-mails van Aandenken gekregen. Probeer het morgen opnieuw.',
    { email: 'Vandaag al genoeg e-mails naar dit adres gestuurd; probeer het morgen opnieuw' },
  );
