import { useId, useRef, useState } from 'react';
import { useFieldArray, useFormContext, useWatch } from 'react-hook-form';
import * as z from 'zod/mini';
import { Plus, Trash2, Upload, X } from 'lucide-react';
import {
  COMPANY_DESCRIPTION_MAX,
  COMPANY_PRICES_MAX,
  companyTypeLabels,
  companyTypeSchema,
  companyTypes,
  dutchPostalCodeSchema,
  emailSchema,
  phoneNumberSchema,
  websiteSchema,
  type CompanyProfile,
  type CompanyProfileInput,
  type PostcodeRange,
} from '@aandenken/contract';
import { municipalities, placeKey } from '@aandenken/contract/municipalities';
import {
  FieldShell,
  Form,
  FormError,
  SelectField,
  SubmitButton,
  TextField,
  TextareaField,
  controlClass,
} from '../../components/form/form.tsx';
import { Button } from '../../components/ui/button.tsx';
import { PageSpinner } from '../../components/ui/spinner.tsx';
import { QueryState } from '../../components/ui/query-state.tsx';
import { cn } from '../../lib/cn.ts';
import { toast } from '../../lib/toast.ts';
import { useCompanyProfile, useLogo, useSaveProfile } from './api/profile.ts';
import type { PortalSectionProps } from './portal-types.ts';

const text = (label: string, max: number) =>
  z
    .string({ error: `${label} is verplicht` })
    .check(
      z.trim(),
      z.minLength(1, `${label} is verplicht`),
      z.maxLength(max, `${label} mag maximaal ${max} tekens zijn`),
    );

/** An amount in euro as people type it: 1250, 1.250, 1250,50, € 1.250,00. */
const EURO = /^(€\s*)?(\d{1,3}(\.\d{3})+|\d+)(,\d{1,2})?$|^(€\s*)?\d+\.\d{1,2}$/;
export function euroToCents(value: string): number {
  let s = value.replace(/[€\s]/g, '');
  if (s.includes(',')) s = s.replace(/\./g, '').replace(',', '.');
  else if (/^\d{1,3}(\.\d{3})+$/.test(s)) s = s.replace(/\./g, '');
  return Math.round(Number(s) * 100);
}
const centsToEuro = (cents: number) =>
  (cents / 100).toLocaleString('nl-NL', {
    minimumFractionDigits: cents % 100 ? 2 : 0,
    maximumFractionDigits: 2,
  });

/** '1000-1099, 3500' → ranges; null when a part is not a postcode or a range of them. */
export function parseRanges(value: string): PostcodeRange[] | null {
  const parts = value
    .split(/[,;\n]+/)
    .map((p) => p.trim())
    .filter(Boolean);
  const ranges: PostcodeRange[] = [];
  for (const part of parts) {
    const m = /^([1-9]\d{3})(?:\s*[-–]\s*([1-9]\d{3}))?$/.exec(part);
    if (!m) return null;
    const from = Number(m[1]);
    const to = Number(m[2] ?? m[1]);
    if (from > to) return null;
    ranges.push({ from, to });
  }
  return ranges;
}
const formatRanges = (ranges: PostcodeRange[]) =>
  ranges.map((r) => (r.from === r.to ? `${r.from}` : `${r.from}-${r.to}`)).join(', ');

const profileFormSchema = z.object({
  name: text('Bedrijfsnaam', 200),
  companyType: companyTypeSchema,
  streetName: text('Straatnaam', 200),
  houseNumber: text('Huisnummer', 20),
  postalCode: dutchPostalCodeSchema,
  city: text('Plaats', 100),
  phoneNumber: phoneNumberSchema,
  email: emailSchema,
  website: websiteSchema,
  description: z
    .string()
    .check(
      z.trim(),
      z.maxLength(
        COMPANY_DESCRIPTION_MAX,
        `Omschrijving mag maximaal ${COMPANY_DESCRIPTION_MAX} tekens zijn`,
      ),
    ),
  prices: z
    .array(
      z.object({
        name: text('Naam van het pakket', 100),
        amount: z.string({ error: 'Bedrag is verplicht' }).check(
          z.trim(),
          z.minLength(1, 'Bedrag is verplicht'),
          z.regex(EURO, 'Voer een bedrag in euro in, bijvoorbeeld 1.250 of 1250,50'),
          z.refine((v) => euroToCents(v) <= 10_000_000, 'Bedrag mag maximaal € 100.000 zijn'),
        ),
        description: z
          .string()
          .check(z.trim(), z.maxLength(300, 'Omschrijving van het pakket mag maximaal 300 tekens zijn')),
      }),
    )
    .check(z.maxLength(COMPANY_PRICES_MAX, `Maximaal ${COMPANY_PRICES_MAX} pakketten`)),
  municipalities: z.array(z.string()),
  postcodes: z
    .string()
    .check(
      z.refine(
        (v) => parseRanges(v) !== null,
        'Voer postcodes of postcodegebieden van vier cijfers in, gescheiden door komma’s: 1000-1099, 3512',
      ),
    ),
});
type ProfileForm = z.infer<typeof profileFormSchema>;

const toForm = (p: CompanyProfile): ProfileForm => ({
  name: p.name,
  companyType: p.companyType,
  streetName: p.streetName,
  houseNumber: p.houseNumber,
  postalCode: p.postalCode,
  city: p.city ?? '',
  phoneNumber: p.phoneNumber,
  email: p.email,
  website: p.website ?? '',
  description: p.description ?? '',
  prices: p.prices.map((x) => ({
    name: x.name,
    amount: centsToEuro(x.amountCents),
    description: x.description ?? '',
  })),
  municipalities: p.workArea.municipalities,
  postcodes: formatRanges(p.workArea.postcodeRanges),
});

const toInput = (v: ProfileForm): CompanyProfileInput => ({
  name: v.name,
  companyType: v.companyType,
  streetName: v.streetName,
  houseNumber: v.houseNumber,
  postalCode: v.postalCode,
  city: v.city,
  phoneNumber: v.phoneNumber,
  email: v.email,
  website: v.website || null,
  description: v.description || null,
  prices: v.prices.map((p) => ({
    name: p.name,
    amountCents: euroToCents(p.amount),
    description: p.description || null,
  })),
  workArea: { municipalities: v.municipalities, postcodeRanges: parseRanges(v.postcodes) ?? [] },
});

/** The partner portal's 'Profiel' section: the company's details, logo, prices and work area. */
export function ProfileSection({ company }: PortalSectionProps) {
  const profile = useCompanyProfile(company.id);
  return (
    <QueryState query={profile} skeleton={<PageSpinner />} error="Het profiel kon niet worden geladen.">
      {(p) => (
        <div className="grid max-w-3xl gap-12">
          <LogoPanel profile={p} />
          <ProfileEditor key={p.updatedAt} profile={p} />
        </div>
      )}
    </QueryState>
  );
}

function LogoPanel({ profile }: { profile: CompanyProfile }) {
  const logo = useLogo(profile.id);
  const input = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const [error, setError] = useState<string | null>(null);

  const change = async (file: File | null) => {
    setError(null);
    try {
      await logo.mutateAsync(file);
      toast.success(file ? 'Logo opgeslagen' : 'Logo verwijderd');
    } catch (e) {
      setError(e instanceof Error ? e.message : 'Het logo kon niet worden opgeslagen.');
    } finally {
      if (input.current) input.current.value = '';
    }
  };

  return (
    <section aria-labelledby="logo-titel">
      <h3 id="logo-titel" className="text-xl font-semibold">
        Logo
      </h3>
      <p className="mt-1 text-sm text-muted">
        JPEG, PNG, WebP, AVIF of GIF. Het logo staat op je openbare pagina en in de zoekresultaten.
      </p>
      <div className="mt-4 flex flex-wrap items-center gap-5">
        {profile.logo ? (
          <img
            src={profile.logo.url}
            srcSet={profile.logo.srcSet}
            sizes="160px"
            alt={`Huidig logo van ${profile.name}`}
            className="h-24 w-40 rounded-xl border border-border bg-white object-contain p-2"
          />
        ) : (
          <p className="flex h-24 w-40 items-center justify-center rounded-xl border border-dashed border-border text-sm text-muted">
            Nog geen logo
          </p>
        )}
        <div className="flex flex-wrap gap-3">
          <input
            ref={input}
            id={inputId}
            type="file"
            accept="image/jpeg,image/png,image/webp,image/avif,image/gif"
            className="sr-only"
            onChange={(e) => void change(e.currentTarget.files?.[0] ?? null).then(() => undefined)}
            disabled={logo.isPending}
          />
          <label
            htmlFor={inputId}
            className={cn(
              'inline-flex h-11 cursor-pointer items-center gap-2 rounded-full border border-border px-5 font-medium hover:bg-secondary',
              'has-[:focus-visible]:outline-2',
              logo.isPending && 'pointer-events-none opacity-60',
            )}
          >
            <Upload aria-hidden className="h-4 w-4" />
            {logo.isPending ? 'Bezig met opslaan…' : profile.logo ? 'Ander logo kiezen' : 'Logo kiezen'}
          </label>
          {profile.logo && (
            <Button variant="ghost" disabled={logo.isPending} onClick={() => void change(null)}>
              <Trash2 aria-hidden className="h-4 w-4" />
              Logo verwijderen
            </Button>
          )}
        </div>
      </div>
      {error && (
        <p role="alert" className="mt-3 text-sm font-medium text-danger">
          {error}
        </p>
      )}
    </section>
  );
}

function ProfileEditor({ profile }: { profile: CompanyProfile }) {
  const save = useSaveProfile(profile.id);
  return (
    <Form
      schema={profileFormSchema}
      defaultValues={toForm(profile)}
      aria-label="Profiel van het bedrijf"
      onSubmit={async (values) => {
        await save.mutateAsync(toInput(values));
        toast.success('Profiel opgeslagen', 'Je openbare pagina is bijgewerkt.');
      }}
      className="grid gap-12"
    >
      {() => (
        <>
          <section aria-labelledby="gegevens-titel" className="grid gap-5">
            <h3 id="gegevens-titel" className="text-xl font-semibold">
              Gegevens
            </h3>
            <TextField name="name" label="Bedrijfsnaam" required autoComplete="organization" />
            <SelectField
              name="companyType"
              label="Soort bedrijf"
              required
              placeholder="Kies het soort bedrijf"
              options={companyTypes.map((t) => ({ value: t, label: companyTypeLabels[t] }))}
            />
            <div className="grid gap-5 sm:grid-cols-[2fr_1fr]">
              <TextField name="streetName" label="Straatnaam" required autoComplete="address-line1" />
              <TextField name="houseNumber" label="Huisnummer" required />
            </div>
            <div className="grid gap-5 sm:grid-cols-[1fr_2fr]">
              <TextField name="postalCode" label="Postcode" required autoComplete="postal-code" />
              <TextField name="city" label="Plaats" required autoComplete="address-level2" />
            </div>
            <div className="grid gap-5 sm:grid-cols-2">
              <TextField name="phoneNumber" label="Telefoonnummer" required type="tel" autoComplete="tel" />
              <TextField name="email" label="E-mailadres" required type="email" autoComplete="email" />
            </div>
            <TextField
              name="website"
              label="Website"
              type="url"
              placeholder="https://www.voorbeeld.nl"
              autoComplete="url"
            />
            <TextareaField
              name="description"
              label="Korte omschrijving"
              hint={`Wie je bent en hoe je werkt, in maximaal ${COMPANY_DESCRIPTION_MAX} tekens.`}
              rows={5}
            />
          </section>
          <PricesFields />
          <WorkAreaFields />
          <div className="flex flex-col items-start gap-4">
            <FormError className="w-full" />
            <SubmitButton size="lg" busyLabel="Opslaan…">
              Profiel opslaan
            </SubmitButton>
          </div>
        </>
      )}
    </Form>
  );
}

function PricesFields() {
  const { control, register, getFieldState, formState } = useFormContext<ProfileForm>();
  const { fields, append, remove } = useFieldArray({ control, name: 'prices' });
  return (
    <section aria-labelledby="prijzen-titel" className="grid gap-4">
      <div>
        <h3 id="prijzen-titel" className="text-xl font-semibold">
          Prijzen
        </h3>
        <p className="mt-1 text-sm text-muted">
          Je pakketten met hun prijs in euro, bijvoorbeeld ‘Basis’ voor 3.950. Maximaal {COMPANY_PRICES_MAX}.
        </p>
      </div>
      {fields.length === 0 && <p className="text-muted">Je hebt nog geen pakketten toegevoegd.</p>}
      <ol className="grid gap-4">
        {fields.map((field, i) => (
          <li key={field.id} className="grid gap-4 rounded-2xl border border-border bg-card p-5">
            <fieldset className="grid gap-4">
              <legend className="font-semibold">Pakket {i + 1}</legend>
              <div className="grid gap-4 sm:grid-cols-[2fr_1fr]">
                <TextField name={`prices.${i}.name`} label="Naam" required />
                <TextField name={`prices.${i}.amount`} label="Bedrag in euro" required inputMode="decimal" />
              </div>
              <FieldShell name={`prices.${i}.description`} label="Omschrijving (optioneel)">
                {(aria) => (
                  <input
                    {...aria}
                    {...register(`prices.${i}.description`)}
                    className={cn(controlClass, 'h-12')}
                  />
                )}
              </FieldShell>
            </fieldset>
            <Button variant="ghost" size="sm" className="justify-self-start" onClick={() => remove(i)}>
              <Trash2 aria-hidden className="h-4 w-4" />
              Pakket {i + 1} verwijderen
            </Button>
          </li>
        ))}
      </ol>
      {getFieldState('prices', formState).error?.message && (
        <p role="alert" className="text-sm font-medium text-danger">
          {getFieldState('prices', formState).error?.message}
        </p>
      )}
      <Button
        variant="outline"
        className="justify-self-start"
        disabled={fields.length >= COMPANY_PRICES_MAX}
        onClick={() => append({ name: '', amount: '', description: '' })}
      >
        <Plus aria-hidden className="h-4 w-4" />
        Pakket toevoegen
      </Button>
    </section>
  );
}

const byKey = new Map(municipalities.map((m) => [placeKey(m.name), m.name]));

function WorkAreaFields() {
  const { control, setValue } = useFormContext<ProfileForm>();
  const chosen = useWatch({ control, name: 'municipalities' });
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<string | null>(null);
  const inputId = useId();
  const listId = useId();
  const errorId = useId();

  const add = () => {
    const name =
      byKey.get(placeKey(typed)) ?? byKey.get(placeKey(typed.replace(/^den haag$/i, "'s-Gravenhage")));
    if (!name) {
      setError(
        typed.trim()
          ? `‘${typed.trim()}’ is geen Nederlandse gemeente. Kies een gemeente uit de lijst.`
          : 'Typ de naam van een gemeente.',
      );
      return;
    }
    setError(null);
    setTyped('');
    if (!chosen.includes(name))
      setValue(
        'municipalities',
        [...chosen, name].sort((a, b) => a.localeCompare(b, 'nl')),
        {
          shouldDirty: true,
        },
      );
  };

  return (
    <section aria-labelledby="werkgebied-titel" className="grid gap-5">
      <div>
        <h3 id="werkgebied-titel" className="text-xl font-semibold">
          Werkgebied
        </h3>
        <p className="mt-1 text-sm text-muted">
          Gemeenten en postcodegebieden waar je werkt. Families vinden je via ‘Vind een uitvaartondernemer’ op
          hun woonplaats of postcode.
        </p>
      </div>
      <div className="flex flex-col gap-1.5">
        <label htmlFor={inputId} className="text-sm font-medium">
          Gemeente toevoegen
        </label>
        <div className="flex flex-col gap-3 sm:flex-row">
          <input
            id={inputId}
            list={listId}
            value={typed}
            autoComplete="off"
            aria-invalid={!!error}
            aria-describedby={error ? errorId : undefined}
            onChange={(e) => setTyped(e.currentTarget.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                add();
              }
            }}
            className={cn(controlClass, 'h-12 sm:max-w-sm')}
          />
          <datalist id={listId}>
            {municipalities.map((m) => (
              <option key={m.name} value={m.name}>
                {m.province}
              </option>
            ))}
          </datalist>
          <Button variant="outline" onClick={add}>
            <Plus aria-hidden className="h-4 w-4" />
            Toevoegen
          </Button>
        </div>
        {error && (
          <p id={errorId} role="alert" className="text-sm font-medium text-danger">
            {error}
          </p>
        )}
      </div>
      {chosen.length === 0 ? (
        <p className="text-muted">Nog geen gemeenten gekozen.</p>
      ) : (
        <ul aria-label="Gekozen gemeenten" className="flex flex-wrap gap-2">
          {chosen.map((m) => (
            <li key={m} className="flex items-center gap-1 rounded-full bg-secondary py-1 pr-1 pl-3 text-sm">
              {m}
              <button
                type="button"
                aria-label={`${m} verwijderen`}
                onClick={() =>
                  setValue(
                    'municipalities',
                    chosen.filter((x) => x !== m),
                    { shouldDirty: true },
                  )
                }
                className="rounded-full p-1 hover:bg-background"
              >
                <X aria-hidden className="h-3.5 w-3.5" />
              </button>
            </li>
          ))}
        </ul>
      )}
      <TextField
        name="postcodes"
        label="Postcodegebieden"
        hint="Postcodes of gebieden van vier cijfers, gescheiden door komma’s, bijvoorbeeld 1000-1099, 3512."
        inputMode="numeric"
      />
    </section>
  );
}
