import { useNavigate, useSearchParams } from 'react-router';
import { ArrowRight } from 'lucide-react';
import { deceasedNamesSchema } from '@aandenken/contract';
import { Form, FormError, TextField } from '../../components/form/form.tsx';
import { Button } from '../../components/ui/button.tsx';
import { useAuth } from '../../lib/auth/auth-context.ts';
import { FlowCard } from './components/flow-card.tsx';
import { nextStepAfterNames } from './guards.ts';

/** /create-memorial: the deceased's names, prefilled from ?firstName&lastName. */
export default function CreateMemorialPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const auth = useAuth();

  return (
    <FlowCard
      step={1}
      title="Maak een gedenkpagina"
      intro="Voor wie maak je deze pagina? Vul de naam in van degene die je wilt herdenken."
    >
      <title>Maak een pagina · Aandenken</title>
      <Form
        schema={deceasedNamesSchema}
        defaultValues={{ firstName: params.get('firstName') ?? '', lastName: params.get('lastName') ?? '' }}
        className="flex flex-col gap-5"
        aria-label="Naam van de overledene"
        onSubmit={async (names) => {
          await navigate(nextStepAfterNames(names, auth.status));
        }}
      >
        {() => (
          <>
            <TextField name="firstName" label="Voornaam" required autoComplete="off" />
            <TextField name="lastName" label="Achternaam" required autoComplete="off" />
            <FormError />
            <Button type="submit" size="lg" className="w-full">
              Volgende
              <ArrowRight aria-hidden className="h-4 w-4" />
            </Button>
          </>
        )}
      </Form>
    </FlowCard>
  );
}
