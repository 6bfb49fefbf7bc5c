import { z } from 'zod';

export const deceasedNamesSchema = z.object({
  firstName: z
    .string({ error: 'Voornaam is verplicht' })
    .trim()
    .min(1, 'Voornaam is verplicht')
    .max(100, 'Voornaam mag maximaal 100 tekens zijn'),
  lastName: z
    .string({ error: 'Achternaam is verplicht' })
    .trim()
    .min(1, 'Achternaam is verplicht')
    .max(100, 'Achternaam mag maximaal 100 tekens zijn'),
});
export type DeceasedNames = z.infer<typeof deceasedNamesSchema>;

export const protectEmailSchema = z.object({
  email: z
    .string()
    .min(1, 'Email is verplicht')
    .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'Voer een geldig emailadres in'),
});

export const memorialConceptResultSchema = z.object({ id: z.uuid() });
