import * as z from 'zod/mini';
import { emailSchema, type Memorial } from '@aandenken/contract';
import { Form, FormError, SelectField, SubmitButton, TextField } from '../../../../components/form/form.tsx';
import { Button } from '../../../../components/ui/button.tsx';
import { QueryState } from '../../../../components/ui/query-state.tsx';
import { Spinner } from '../../../../components/ui/spinner.tsx';
import { toast } from '../../../../lib/toast.ts';
import { useMembers } from '../../api/people.ts';
import { useSetSuccessor, useSuccessor } from '../../api/successor.ts';
import { errorText, Section } from '../section.tsx';

const memberChoice = z.object({ userId: z.string().check(z.minLength(1, 'Kies een lid')) });
const addressChoice = z.object({ email: emailSchema });

/**
 * 'Opvolger' (owners): who takes the page over when its last owner is gone, or has not signed in for a year
 * and does not answer two reminders. Another member, or an address that is invited then.
 */
export function SuccessorSection({ memorial }: { memorial: Memorial }) {
  const successor = useSuccessor(memorial.id);
  const members = useMembers(memorial.id);
  const set = useSetSuccessor(memorial.id);
  const others = (members.data?.items ?? []).filter((m) => !m.isSelf);

  const remove = async () => {
    try {
      await set.mutateAsync(null);
      toast.success('De opvolger is weggehaald');
    } catch (error) {
      toast.error('Weghalen is niet gelukt', errorText(error));
    }
  };

  return (
    <Section
      title="Opvolger"
      description="Wie neemt de pagina over als jij er niet meer bent? Als de laatste eigenaar zijn account verwijdert, of een jaar niet inlogt en twee herinneringen onbeantwoord laat, wordt je opvolger eigenaar. Iemand zonder account krijgt dan een uitnodiging per e-mail."
    >
      <QueryState
        query={successor}
        skeleton={<Spinner label="Opvolger laden" />}
        error="De opvolger kon niet worden geladen."
      >
        {(data) => (
          <div className="flex flex-col gap-6">
            <div
              role="status"
              className="flex flex-wrap items-center justify-between gap-3 rounded-2xl bg-secondary px-4 py-3"
            >
              <p>
                {data.successor ? (
                  <>
                    Je opvolger: <strong>{data.successor.name ?? data.successor.email}</strong>
                    {data.successor.name && data.successor.email && (
                      <span className="text-muted"> ({data.successor.email})</span>
                    )}
                  </>
                ) : (
                  'Je hebt nog geen opvolger aangewezen.'
                )}
              </p>
              {data.successor && (
                <Button variant="outline" size="sm" onClick={() => void remove()} disabled={set.isPending}>
                  Opvolger weghalen
                </Button>
              )}
            </div>
            {others.length > 0 && (
              <Form
                schema={memberChoice}
                defaultValues={{ userId: '' }}
                aria-label="Een lid als opvolger aanwijzen"
                className="grid gap-4 sm:grid-cols-[1fr_auto] sm:items-end"
                onSubmit={async ({ userId }) => {
                  await set.mutateAsync({ userId });
                  toast.success('Je opvolger is aangewezen');
                }}
              >
                {() => (
                  <>
                    <SelectField
                      name="userId"
                      label="Een lid van deze pagina"
                      placeholder="Kies een lid"
                      options={others.map((m) => ({ value: m.userId, label: m.name ?? m.email ?? 'Lid' }))}
                    />
                    <SubmitButton>Aanwijzen</SubmitButton>
                    <FormError className="sm:col-span-2" />
                  </>
                )}
              </Form>
            )}
            <Form
              schema={addressChoice}
              defaultValues={{ email: '' }}
              aria-label="Een e-mailadres als opvolger aanwijzen"
              className="grid gap-4 sm:grid-cols-[1fr_auto] sm:items-end"
              onSubmit={async ({ email }, form) => {
                await set.mutateAsync({ email });
                toast.success('Je opvolger is aangewezen');
                form.reset();
              }}
            >
              {() => (
                <>
                  <TextField
                    name="email"
                    type="email"
                    label={others.length > 0 ? 'Of een e-mailadres' : 'E-mailadres van je opvolger'}
                    autoComplete="off"
                  />
                  <SubmitButton>Aanwijzen</SubmitButton>
                  <FormError className="sm:col-span-2" />
                </>
              )}
            </Form>
          </div>
        )}
      </QueryState>
    </Section>
  );
}
