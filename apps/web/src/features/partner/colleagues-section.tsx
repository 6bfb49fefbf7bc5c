import { Mail, ShieldCheck, UserMinus, UserPlus, X } from 'lucide-react';
import { inviteColleagueSchema, type AccountRoles, type Colleague } from '@aandenken/contract';
import { Form, FormError, SubmitButton, TextField } from '../../components/form/form.tsx';
import { Button } from '../../components/ui/button.tsx';
import { ConfirmDialog } from '../../components/ui/confirm-dialog.tsx';
import { QueryState } from '../../components/ui/query-state.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { formatDate } from '../../lib/format.ts';
import { toast } from '../../lib/toast.ts';
import {
  useColleagues,
  useInviteColleague,
  useRemoveColleague,
  useRevokeInvitation,
  useSetAdmin,
} from './api/partner.ts';

type Company = AccountRoles['companies'][number];
const errorOf = (e: unknown) => (e instanceof Error ? e.message : undefined);

/**
 * Collega's: the company's users; its administrators invite more by e-mail, make one administrator (or
 * take that back), and remove them. There is always at least one administrator (the server says so).
 */
export function ColleaguesSection({ company }: { company: Company }) {
  const colleagues = useColleagues(company.id);
  const invite = useInviteColleague(company.id);
  const revoke = useRevokeInvitation(company.id);
  const headingId = `collegas-${company.id}`;

  return (
    <section aria-labelledby={headingId} className="rounded-2xl border border-border bg-card p-6">
      <h3 id={headingId} className="text-xl font-semibold">
        Collega’s
      </h3>
      <p className="mt-1 text-sm text-muted">
        Collega’s maken en beheren pagina’s voor families namens {company.name}.
        {company.isAdmin
          ? ' Als beheerder nodig je collega’s uit en bepaal je wie beheerder is.'
          : ' Een beheerder nodigt collega’s uit.'}
      </p>

      <QueryState
        query={colleagues}
        skeleton={<Skeleton className="mt-5 h-24 w-full rounded-xl" />}
        error="De collega’s konden niet worden geladen."
      >
        {(data) => (
          <>
            <ul className="mt-5 divide-y divide-border" aria-label={`Collega’s van ${company.name}`}>
              {data.users.map((u) => (
                <ColleagueRow
                  key={u.userId}
                  companyId={company.id}
                  colleague={u}
                  canManage={company.isAdmin}
                />
              ))}
            </ul>
            {company.isAdmin && data.invitations.length > 0 && (
              <>
                <h4 className="mt-6 font-semibold">Uitgenodigd</h4>
                <ul className="mt-2 divide-y divide-border" aria-label="Openstaande uitnodigingen">
                  {data.invitations.map((i) => (
                    <li key={i.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
                      <span className="flex items-center gap-2">
                        <Mail aria-hidden className="h-4 w-4 text-muted" />
                        <span>{i.email}</span>
                        <span className="text-sm text-muted">
                          {i.expired ? '· verlopen' : `· geldig tot ${formatDate(i.expiresAt)}`}
                        </span>
                      </span>
                      <Button
                        variant="outline"
                        size="sm"
                        disabled={revoke.isPending}
                        aria-label={`Uitnodiging voor ${i.email} intrekken`}
                        onClick={() =>
                          revoke.mutate(i.id, {
                            onError: (e) => toast.error('Intrekken lukte niet', errorOf(e)),
                          })
                        }
                      >
                        <X aria-hidden className="h-4 w-4" />
                        Intrekken
                      </Button>
                    </li>
                  ))}
                </ul>
              </>
            )}
          </>
        )}
      </QueryState>

      {company.isAdmin && (
        <Form
          schema={inviteColleagueSchema}
          defaultValues={{ email: '' }}
          aria-label="Collega uitnodigen"
          className="mt-6 flex flex-col gap-3"
          onSubmit={async (values, form) => {
            await invite.mutateAsync(values.email);
            toast.success('Uitnodiging verstuurd', `We hebben ${values.email} een e-mail gestuurd.`);
            form.reset({ email: '' });
          }}
        >
          {() => (
            <>
              <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
                <TextField
                  name="email"
                  type="email"
                  autoComplete="off"
                  label="E-mailadres van de collega"
                  required
                  className="grow"
                />
                <SubmitButton icon={<UserPlus aria-hidden className="h-4 w-4" />}>
                  Collega uitnodigen
                </SubmitButton>
              </div>
              <FormError />
            </>
          )}
        </Form>
      )}
    </section>
  );
}

function ColleagueRow({
  companyId,
  colleague: u,
  canManage,
}: {
  companyId: string;
  colleague: Colleague;
  canManage: boolean;
}) {
  const setAdmin = useSetAdmin(companyId);
  const remove = useRemoveColleague(companyId);
  const who = u.name || u.email || 'Collega';
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 py-3">
      <span className="min-w-0">
        <span className="font-medium">{who}</span>
        {u.isSelf && <span className="text-muted"> (jij)</span>}
        {u.email && u.name && <span className="block text-sm text-muted">{u.email}</span>}
      </span>
      <span className="flex flex-wrap items-center gap-2">
        {u.isAdmin && (
          <span className="inline-flex items-center gap-1 rounded-full bg-success-soft px-3 py-1 text-sm">
            <ShieldCheck aria-hidden className="h-4 w-4 text-primary" />
            Beheerder
          </span>
        )}
        {canManage && (
          <Button
            variant="outline"
            size="sm"
            disabled={setAdmin.isPending}
            onClick={() =>
              setAdmin.mutate(
                { userId: u.userId, isAdmin: !u.isAdmin },
                {
                  onSuccess: () =>
                    toast.success(u.isAdmin ? `${who} is geen beheerder meer` : `${who} is nu beheerder`),
                  onError: (e) => toast.error('Dit kon niet worden gewijzigd', errorOf(e)),
                },
              )
            }
          >
            {u.isAdmin ? `${who}: geen beheerder meer` : `${who} beheerder maken`}
          </Button>
        )}
        {(canManage || u.isSelf) && (
          <ConfirmDialog
            trigger={
              <Button
                variant="outline"
                size="sm"
                aria-label={u.isSelf ? 'Het bedrijf verlaten' : `${who} verwijderen`}
              >
                <UserMinus aria-hidden className="h-4 w-4" />
                {u.isSelf ? 'Verlaten' : 'Verwijderen'}
              </Button>
            }
            title={u.isSelf ? 'Het bedrijf verlaten?' : `${who} verwijderen?`}
            description={
              u.isSelf
                ? 'Je verliest meteen de toegang tot het bedrijf en de pagina’s die het beheert.'
                : `${who} verliest meteen de toegang tot het bedrijf en de pagina’s die het beheert.`
            }
            confirmLabel={u.isSelf ? 'Verlaten' : 'Verwijderen'}
            destructive
            onConfirm={async () => {
              try {
                await remove.mutateAsync(u.userId);
                toast.success(u.isSelf ? 'Je hebt het bedrijf verlaten' : `${who} is verwijderd`);
              } catch (e) {
                toast.error('Verwijderen lukte niet', errorOf(e));
                throw e;
              }
            }}
          />
        )}
      </span>
    </li>
  );
}
