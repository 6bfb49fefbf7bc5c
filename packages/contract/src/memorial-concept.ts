import * as z from 'zod/mini';
import { personNameChecks } from './person-name.ts';

export const deceasedNamesSchema = z.object({
  firstName: z
    .string({ error: 'Voornaam is verplicht' })
    .check(
      z.trim(),
      z.minLength(1, 'Voornaam is verplicht'),
      z.maxLength(100, 'Voornaam mag maximaal 100 tekens zijn'),
      ...personNameChecks(),
    ),
  lastName: z
    .string({ error: 'Achternaam is verplicht' })
    .check(
      z.trim(),
      z.minLength(1, 'Achternaam is verplicht'),
      z.maxLength(100, 'Achternaam mag maximaal 100 tekens zijn'),
      ...personNameChecks(),
    ),
});
export type DeceasedNames = z.infer<typeof deceasedNamesSchema>;

export const protectEmailSchema = z.object({
  email: z
    .string()
    .check(
      z.minLength(1, 'Email is verplicht'),
      z.regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'Voer een geldig emailadres in'),
    ),
});

export const memorialConceptResultSchema = z.object({ id: z.uuid() });
