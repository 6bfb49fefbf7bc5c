import { useWatch } from 'react-hook-form';
import { Send } from 'lucide-react';
import { companyRequestSchema, companyTypeLabels, companyTypes } from '@aandenken/contract';
import {
  Form,
  FormError,
  SelectField,
  TextareaField,
  TextField,
  SubmitButton,
} from '../../components/form/form.tsx';
import { useRequestCompany } from './api/request-company.ts';

const typeOptions = companyTypes.map((value) => ({ value, label: companyTypeLabels[value] }));

/** The partner application. Values stay in the form when sending fails. */
export function PartnerForm({ onDone }: { onDone: (companyName: string) => void }) {
  const request = useRequestCompany();
  return (
    <Form
      schema={companyRequestSchema}
      aria-labelledby="apply-heading"
      defaultValues={{
        companyType: '' as never,
        serviceDescription: '',
        firstName: '',
        lastName: '',
        companyName: '',
        streetName: '',
        houseNumber: '',
        postalCode: '',
        phoneNumber: '',
        email: '',
        additionalInfo: '',
      }}
      onSubmit={async (values) => {
        await request.mutateAsync(values);
        onDone(values.companyName);
      }}
      className="flex flex-col gap-6"
    >
      {() => (
        <>
          <p className="text-sm text-muted">
            Velden met een <span className="text-accent">*</span> zijn verplicht.
          </p>
          <SelectField
            name="companyType"
            label="Soort partner"
            required
            placeholder="Kies het soort bedrijf"
            options={typeOptions}
          />
          <ServiceDescription />
          <div className="grid gap-6 sm:grid-cols-2">
            <TextField name="firstName" label="Voornaam" required autoComplete="given-name" />
            <TextField name="lastName" label="Achternaam" required autoComplete="family-name" />
          </div>
          <TextField name="companyName" label="Bedrijfsnaam" required autoComplete="organization" />
          <div className="grid gap-6 sm:grid-cols-[1fr_9rem]">
            <TextField name="streetName" label="Straatnaam" required autoComplete="address-line1" />
            <TextField name="houseNumber" label="Huisnummer" required autoComplete="address-line2" />
          </div>
          <div className="grid gap-6 sm:grid-cols-2">
            <TextField
              name="postalCode"
              label="Postcode"
              required
              autoComplete="postal-code"
              placeholder="1234 AB"
            />
            <TextField
              name="phoneNumber"
              label="Telefoonnummer"
              required
              type="tel"
              autoComplete="tel"
              placeholder="010 123 45 67"
            />
          </div>
          <TextField
            name="email"
            label="E-mailadres"
            required
            type="email"
            autoComplete="email"
            placeholder="naam@bedrijf.nl"
          />
          <TextareaField
            name="additionalInfo"
            label="Aanvullende informatie"
            hint="Optioneel: vertel ons bijvoorbeeld over je werkgebied of hoeveel uitvaarten je per jaar verzorgt."
            rows={4}
          />
          <FormError />
          <SubmitButton
            size="lg"
            className="w-full sm:w-auto sm:self-start"
            busyLabel="Verwerken..."
            icon={<Send aria-hidden className="h-4 w-4" />}
          >
            Aanvraag versturen
          </SubmitButton>
        </>
      )}
    </Form>
  );
}

/** Only for 'Andere dienstverlener', and then required. */
function ServiceDescription() {
  const type = useWatch({ name: 'companyType' });
  if (type !== 'OtherServiceProvider') return null;
  return (
    <TextareaField
      name="serviceDescription"
      label="Omschrijving van je diensten"
      required
      hint="Welke diensten bied je aan nabestaanden?"
      rows={4}
    />
  );
}
