import { mediaErrorCodes, memoryErrorCodes } from '@aandenken/contract';
import { AppError } from '../lib/errors.ts';

export const memoryNotFound = () =>
  new AppError(
    404,
    memoryErrorCodes.memoryNotFound,
    'Deze herinnering bestaat niet of je hebt er geen toegang toe.',
  );

export const invalidTransition = (message: string) =>
  new AppError(409, memoryErrorCodes.memoryInvalidTransition, message);

export const memorialArchived = () =>
  new AppError(
    409,
    mediaErrorCodes.memorialArchived,
    'Deze gedenkpagina is gearchiveerd en kan niet meer worden aangevuld.',
  );
