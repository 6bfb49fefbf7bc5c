import * as z from 'zod/mini';
import { personNameChecks } from './person-name.ts';

export const companyTypes = [
  'FuneralDirector',
  'Crematorium',
  'FuneralInsurer',
  'GriefCounselor',
  'MonumentMaker',
  'OtherServiceProvider',
] as const;
export const companyTypeSchema = z.enum(companyTypes, { error: 'Kies het soort bedrijf' });
export type CompanyType = z.infer<typeof companyTypeSchema>;

export const companyTypeLabels: Record<CompanyType, string> = {
  FuneralDirector: 'Uitvaartondernemer',
  Crematorium: 'Crematorium',
  FuneralInsurer: 'Uitvaartverzekeraar',
  GriefCounselor: 'Rouwbegeleider',
  MonumentMaker: 'Steenhouwer / monumentenmaker',
  OtherServiceProvider: 'Andere dienstverlener',
};

/** A person's name: also mailed to the applicant's address, which has not proven itself. */
const personName = (label: string, max: number) =>
  z
    .string({ error: `${label} is verplicht` })
    .check(
      z.trim(),
      z.minLength(1, `${label} is verplicht`),
      z.maxLength(max, `${label} mag maximaal ${max} tekens zijn`),
      ...personNameChecks(),
    );

const required = (label: string, max = 200) =>
  z
    .string({ error: `${label} is verplicht` })
    .check(
      z.trim(),
      z.minLength(1, `${label} is verplicht`),
      z.maxLength(max, `${label} mag maximaal ${max} tekens zijn`),
    );

export const dutchPostalCodeSchema = z
  .string({ error: 'Postcode is verplicht' })
  .check(
    z.trim(),
    z.minLength(1, 'Postcode is verplicht'),
    z.regex(/^[1-9][0-9]{3}\s?[A-Za-z]{2}$/, 'Voer een geldige postcode in, bijvoorbeeld 1234 AB'),
  );

export const phoneNumberSchema = z
  .string({ error: 'Telefoonnummer is verplicht' })
  .check(
    z.trim(),
    z.minLength(1, 'Telefoonnummer is verplicht'),
    z.regex(/^\+?[0-9\s()-]{8,20}$/, 'Voer een geldig telefoonnummer in'),
  );

export const emailSchema = z
  .string({ error: 'E-mailadres is verplicht' })
  .check(
    z.trim(),
    z.minLength(1, 'E-mailadres is verplicht'),
    z.maxLength(254, 'E-mailadres is te lang'),
    z.regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'Voer een geldig e-mailadres in'),
  );

/** The partner application. */
export const companyRequestSchema = z
  .object({
    companyType: companyTypeSchema,
    serviceDescription: z.optional(
      z.string().check(z.trim(), z.maxLength(2000, 'Omschrijving mag maximaal 2000 tekens zijn')),
    ),
    firstName: personName('Voornaam', 100),
    lastName: personName('Achternaam', 100),
    companyName: required('Bedrijfsnaam'),
    streetName: required('Straatnaam'),
    houseNumber: required('Huisnummer', 20),
    postalCode: dutchPostalCodeSchema,
    phoneNumber: phoneNumberSchema,
    email: emailSchema,
    additionalInfo: z.optional(
      z.string().check(z.trim(), z.maxLength(4000, 'Aanvullende informatie mag maximaal 4000 tekens zijn')),
    ),
    extraInfo: z.optional(z.string().check(z.trim(), z.maxLength(4000))),
  })
  .check(
    z.superRefine((value, ctx) => {
      if (value.companyType === 'OtherServiceProvider' && !value.serviceDescription) {
        ctx.addIssue({
          code: 'custom',
          path: ['serviceDescription'],
          message: 'Omschrijf je diensten',
        });
      }
    }),
  );
export type CompanyRequest = z.infer<typeof companyRequestSchema>;

export const companyStatuses = ['pending', 'approved', 'rejected'] as const;

export const companyResponseSchema = z.object({
  id: z.uuid(),
  status: z.enum(companyStatuses),
  companyType: companyTypeSchema,
  companyName: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  streetName: z.string(),
  houseNumber: z.string(),
  postalCode: z.string(),
  phoneNumber: z.string(),
  email: z.string(),
  serviceDescription: z.nullable(z.string()),
  additionalInfo: z.nullable(z.string()),
  createdAt: z.string(),
  /** When the team decided, and the reason given with a rejection. */
  decidedAt: z.optional(z.nullable(z.string())),
  rejectionReason: z.optional(z.nullable(z.string())),
  /** The company made from an approved application. */
  company: z.optional(z.nullable(z.object({ slug: z.string(), state: z.enum(['active', 'suspended']) }))),
});
export type CompanyResponse = z.infer<typeof companyResponseSchema>;

export const companyRequestResultSchema = z.object({ id: z.uuid(), status: z.enum(companyStatuses) });
