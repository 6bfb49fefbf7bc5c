import * as z from 'zod/mini';
import { companyTypeSchema, dutchPostalCodeSchema, emailSchema, phoneNumberSchema } from './company.ts';
import { companyStateSchema } from './team.ts';

/** The most packages a company shows with its prices, and the most work-area entries. */
export const COMPANY_PRICES_MAX = 20;
export const COMPANY_MUNICIPALITIES_MAX = 342;
export const COMPANY_POSTCODE_RANGES_MAX = 50;
/** The highest amount of one package: € 100.000,00. */
export const COMPANY_PRICE_MAX_CENTS = 10_000_000;
export const COMPANY_DESCRIPTION_MAX = 1000;

const text = (label: string, max: number) =>
  z
    .string({ error: `${label} is verplicht` })
    .check(
      z.trim(),
      z.minLength(1, `${label} is verplicht`),
      z.maxLength(max, `${label} mag maximaal ${max} tekens zijn`),
    );
const optionalText = (label: string, max: number) =>
  z.optional(
    z.nullable(z.string().check(z.trim(), z.maxLength(max, `${label} mag maximaal ${max} tekens zijn`))),
  );

/** One package with its price: amounts in whole cents (€ 1.250,00 is 125000). */
export const companyPriceSchema = z.object({
  name: text('Naam van het pakket', 100),
  amountCents: z
    .number({ error: 'Bedrag is verplicht' })
    .check(
      z.int('Bedrag moet een heel aantal centen zijn'),
      z.minimum(0, 'Bedrag kan niet negatief zijn'),
      z.maximum(COMPANY_PRICE_MAX_CENTS, 'Bedrag mag maximaal € 100.000 zijn'),
    ),
  description: optionalText('Omschrijving van het pakket', 300),
});
export type CompanyPrice = z.infer<typeof companyPriceSchema>;

/** A range of four-digit postcodes, both ends included: 1000–1099. */
export const postcodeRangeSchema = z
  .object({
    from: z.number().check(z.int(), z.minimum(1000, 'Een postcode heeft vier cijfers'), z.maximum(9999)),
    to: z.number().check(z.int(), z.minimum(1000), z.maximum(9999, 'Een postcode heeft vier cijfers')),
  })
  .check(
    z.refine((r) => r.from <= r.to, {
      message: 'Het begin van een postcodegebied moet voor het einde liggen',
      path: ['to'],
    }),
  );
export type PostcodeRange = z.infer<typeof postcodeRangeSchema>;

/**
 * Where the company works: municipalities by their CBS name (checked by the server against the list the
 * product ships, `@aandenken/contract/municipalities`) and postcode ranges.
 */
export const workAreaSchema = z.object({
  municipalities: z
    .array(z.string().check(z.trim(), z.minLength(1), z.maxLength(60)))
    .check(z.maxLength(COMPANY_MUNICIPALITIES_MAX, 'Te veel gemeenten')),
  postcodeRanges: z
    .array(postcodeRangeSchema)
    .check(
      z.maxLength(COMPANY_POSTCODE_RANGES_MAX, `Maximaal ${COMPANY_POSTCODE_RANGES_MAX} postcodegebieden`),
    ),
});
export type WorkArea = z.infer<typeof workAreaSchema>;

export const websiteSchema = z
  .string()
  .check(
    z.trim(),
    z.maxLength(200, 'Website mag maximaal 200 tekens zijn'),
    z.regex(
      /^$|^https?:\/\/[a-z0-9-]+(\.[a-z0-9-]+)+(:\d+)?(\/[^\s]*)?$/i,
      'Voer een geldige website in, bijvoorbeeld https://www.voorbeeld.nl',
    ),
  );

/** What the partner portal saves: the whole profile at once. */
export const companyProfileInputSchema = z.object({
  name: text('Bedrijfsnaam', 200),
  companyType: companyTypeSchema,
  streetName: text('Straatnaam', 200),
  houseNumber: text('Huisnummer', 20),
  postalCode: dutchPostalCodeSchema,
  city: text('Plaats', 100),
  phoneNumber: phoneNumberSchema,
  email: emailSchema,
  website: z.optional(z.nullable(websiteSchema)),
  description: optionalText('Omschrijving', COMPANY_DESCRIPTION_MAX),
  prices: z
    .array(companyPriceSchema)
    .check(z.maxLength(COMPANY_PRICES_MAX, `Maximaal ${COMPANY_PRICES_MAX} pakketten`)),
  workArea: workAreaSchema,
});
export type CompanyProfileInput = z.infer<typeof companyProfileInputSchema>;

/** A logo in the sizes made of it (WebP), smallest first; public while the company is active. */
export const companyLogoSchema = z.object({
  url: z.string(),
  width: z.number(),
  height: z.number(),
  srcSet: z.string(),
});
export type CompanyLogo = z.infer<typeof companyLogoSchema>;

export const companyProfileSchema = z.object({
  id: z.uuid(),
  slug: z.string(),
  state: companyStateSchema,
  name: z.string(),
  companyType: companyTypeSchema,
  streetName: z.string(),
  houseNumber: z.string(),
  postalCode: z.string(),
  city: z.nullable(z.string()),
  phoneNumber: z.string(),
  email: z.string(),
  website: z.nullable(z.string()),
  description: z.nullable(z.string()),
  logo: z.nullable(companyLogoSchema),
  prices: z.array(companyPriceSchema),
  workArea: workAreaSchema,
  updatedAt: z.string(),
});
export type CompanyProfile = z.infer<typeof companyProfileSchema>;

/** The public company page (`/uitvaartondernemers/{slug}`): an active company only. */
export const publicCompanySchema = z.object({
  slug: z.string(),
  name: z.string(),
  companyType: companyTypeSchema,
  streetName: z.string(),
  houseNumber: z.string(),
  postalCode: z.string(),
  city: z.nullable(z.string()),
  phoneNumber: z.string(),
  email: z.string(),
  website: z.nullable(z.string()),
  description: z.nullable(z.string()),
  logo: z.nullable(companyLogoSchema),
  prices: z.array(companyPriceSchema),
  workArea: workAreaSchema,
  /** The pages it cared for whose families agreed to be shown (public and published), newest death first. */
  caredPages: z.array(
    z.object({
      id: z.string(),
      /** The page's readable address: /gedenkpagina/{slug}. */
      slug: z.string(),
      name: z.string(),
      birthDate: z.nullable(z.string()),
      deathDate: z.nullable(z.string()),
    }),
  ),
});
export type PublicCompany = z.infer<typeof publicCompanySchema>;

export const directoryQuerySchema = z.object({
  q: z.optional(z.string().check(z.maxLength(100, 'Zoekterm mag maximaal 100 tekens zijn'))),
});

/**
 * The directory 'Vind een uitvaartondernemer': without a query every active company (by name); with a place
 * name, the companies working in its municipality; with a postcode, those whose work area holds it.
 */
export const directorySchema = z.object({
  query: z.nullable(z.string()),
  /** How the query was read: a place name, a postcode, or not recognised (then no results). */
  match: z.enum(['all', 'place', 'postcode', 'unknown']),
  /** The municipalities the query was found in. */
  municipalities: z.array(z.string()),
  items: z.array(
    z.object({
      slug: z.string(),
      name: z.string(),
      companyType: companyTypeSchema,
      city: z.nullable(z.string()),
      description: z.nullable(z.string()),
      logo: z.nullable(companyLogoSchema),
    }),
  ),
});
export type Directory = z.infer<typeof directorySchema>;

/** '€ 1.250,00' */
export const formatEuro = (cents: number) =>
  `€ ${(cents / 100).toLocaleString('nl-NL', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
