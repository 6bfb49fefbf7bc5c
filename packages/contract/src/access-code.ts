import * as z from 'zod/mini';
import { ACCESS_CODE_LENGTH } from './constants.ts';

/** The visitor's form (spec §5): required, then exactly eight digits. */
export const accessCodeSchema = z
  .string({ error: 'Invalid input' })
  .check(
    z.minLength(1, 'Code is required'),
    z.regex(new RegExp(`^\\d{${ACCESS_CODE_LENGTH}}$`), 'Code must be an 8-digit number'),
  );

export const accessCodeFormSchema = z.object({ accessCode: accessCodeSchema });
export type AccessCodeForm = z.infer<typeof accessCodeFormSchema>;
