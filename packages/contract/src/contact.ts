import * as z from 'zod/mini';
import { emailSchema } from './company.ts';

export const contactSubjects = ['memorial-pages', 'become-partner', 'technical-support', 'general'] as const;
export const contactSubjectLabels: Record<(typeof contactSubjects)[number], string> = {
  'memorial-pages': 'Vragen over gedenkpagina’s',
  'become-partner': 'Partner worden',
  'technical-support': 'Technische ondersteuning',
  general: 'Algemene vraag',
};

export const contactMessageSchema = z.object({
  name: z
    .string({ error: 'Naam is verplicht' })
    .check(
      z.trim(),
      z.minLength(1, 'Naam is verplicht'),
      z.maxLength(200, 'Naam mag maximaal 200 tekens zijn'),
    ),
  email: emailSchema,
  subject: z.enum(contactSubjects, { error: 'Kies een onderwerp' }),
  message: z
    .string({ error: 'Bericht is verplicht' })
    .check(
      z.trim(),
      z.minLength(1, 'Bericht is verplicht'),
      z.maxLength(5000, 'Bericht mag maximaal 5000 tekens zijn'),
    ),
});
export type ContactMessage = z.infer<typeof contactMessageSchema>;
export const contactResultSchema = z.object({ id: z.uuid() });
