import * as z from 'zod/mini';
import { ACCESS_CODE_LENGTH } from './constants.ts';
import { ACCESS_CODE_MESSAGES, normaliseAccessCode } from './access-code-format.ts';

/** The visitor's form and the API alike: separators are ignored, then it is required and exactly eight digits. */
export const accessCodeSchema = z
  .string({ error: ACCESS_CODE_MESSAGES.type })
  .check(
    z.overwrite(normaliseAccessCode),
    z.minLength(1, ACCESS_CODE_MESSAGES.required),
    z.regex(new RegExp(`^\\d{${ACCESS_CODE_LENGTH}}$`), ACCESS_CODE_MESSAGES.format),
  );

export const accessCodeFormSchema = z.object({ accessCode: accessCodeSchema });
export type AccessCodeForm = z.infer<typeof accessCodeFormSchema>;
