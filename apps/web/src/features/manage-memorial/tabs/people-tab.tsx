import { Mail, RefreshCw, Send, Trash2, UserMinus } from 'lucide-react';
import {
  inviteCreateSchema,
  inviteRoles,
  memberRoleLabels,
  memberRoles,
  type Invite,
  type Member,
  type MemberRole,
  type Memorial,
} from '@aandenken/contract';
import { Form, FormError, SelectField, TextField, SubmitButton } from '../../../components/form/form.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { cn } from '../../../lib/cn.ts';
import { formatDate } from '../../../lib/format.ts';
import { toast } from '../../../lib/toast.ts';
import {
  useInvite,
  useMembers,
  useOpenInvites,
  useRemoveMember,
  useResendInvite,
  useRevokeInvite,
  useSetRole,
} from '../api/people.ts';
import { errorText, Section } from '../components/section.tsx';

export const roleDescriptions: Record<MemberRole, string> = {
  owner: 'beheert alles, ook mensen en het logboek',
  editor: 'past de pagina aan en keurt herinneringen goed',
  contributor: 'plaatst herinneringen en foto’s direct',
  guest: 'bekijkt de pagina; herinneringen wachten op goedkeuring',
};

/** Which roles the caller may give someone with `current` (the server decides too). */
export function assignableRoles(actor: MemberRole, current: MemberRole): MemberRole[] {
  if (actor === 'owner') return [...memberRoles];
  if (actor === 'editor' && (current === 'contributor' || current === 'guest'))
    return ['contributor', 'guest'];
  return [];
}

/** People: invite by e-mail with a role, the open invitations, and the members with their roles. */
export function PeopleTab({ memorial }: { memorial: Memorial }) {
  const actor = memorial.role as MemberRole;
  const invite = useInvite(memorial.id);
  const roles = inviteRoles.filter((r) => actor === 'owner' || r !== 'editor');

  return (
    <div className="flex flex-col gap-8">
      <Section
        title="Iemand uitnodigen"
        description="De uitnodiging komt per e-mail met een persoonlijke link. Wie die opent, logt in of maakt een account aan en wordt lid met de gekozen rol."
      >
        <Form
          schema={inviteCreateSchema}
          defaultValues={{ email: '', name: '', role: 'guest' }}
          aria-label="Uitnodiging versturen"
          className="grid gap-5 sm:grid-cols-2"
          onSubmit={async (values, form) => {
            const sent = await invite.mutateAsync(values);
            form.reset({ email: '', name: '', role: values.role });
            if (sent.mailSent) toast.success('De uitnodiging is verstuurd', `Naar ${sent.email}`);
            else
              toast.error(
                'De uitnodiging staat klaar, maar de e-mail kon niet worden verstuurd',
                'Probeer het later opnieuw met ‘Opnieuw versturen’.',
              );
          }}
        >
          {() => (
            <>
              <TextField name="email" label="E-mailadres" type="email" required autoComplete="off" />
              <TextField name="name" label="Naam (niet verplicht)" autoComplete="off" />
              <SelectField
                name="role"
                label="Rol"
                required
                placeholder="Kies een rol"
                options={roles.map((r) => ({
                  value: r,
                  label: `${memberRoleLabels[r]}: ${roleDescriptions[r]}`,
                }))}
                className="sm:col-span-2"
              />
              <FormError className="sm:col-span-2" />
              <div className="sm:col-span-2">
                <SubmitButton
                  disabled={memorial.status === 'archived'}
                  icon={<Send aria-hidden className="h-4 w-4" />}
                >
                  Uitnodiging versturen
                </SubmitButton>
              </div>
            </>
          )}
        </Form>
      </Section>
      <OpenInvites memorial={memorial} />
      <Members memorial={memorial} actor={actor} />
    </div>
  );
}

function OpenInvites({ memorial }: { memorial: Memorial }) {
  const invites = useOpenInvites(memorial.id);
  const resend = useResendInvite(memorial.id);
  const revoke = useRevokeInvite(memorial.id);
  const items = invites.data?.items ?? [];

  return (
    <Section
      title="Openstaande uitnodigingen"
      description="Een uitnodiging is 14 dagen geldig. Opnieuw versturen maakt een nieuwe link; de oude werkt dan niet meer."
    >
      <QueryState
        query={invites}
        skeleton={<Skeleton className="h-20 rounded-2xl" />}
        error="De uitnodigingen konden niet worden geladen."
      >
        {() =>
          items.length === 0 ? (
            <p className="text-sm text-muted">Er staan geen uitnodigingen open.</p>
          ) : (
            <ul
              className="divide-y divide-border rounded-2xl border border-border"
              aria-label="Openstaande uitnodigingen"
            >
              {items.map((i: Invite) => (
                <li
                  key={i.id}
                  className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between"
                >
                  <div className="min-w-0">
                    <p className="flex items-center gap-2 font-medium break-all">
                      <Mail aria-hidden className="h-4 w-4 shrink-0 text-muted" />
                      {i.name ? `${i.name} (${i.email})` : i.email}
                    </p>
                    <p className="mt-0.5 text-sm text-muted">
                      {memberRoleLabels[i.role]} · geldig tot {formatDate(i.expiresAt)}
                      {i.sendCount > 1 && ` · ${i.sendCount} keer verstuurd`}
                    </p>
                  </div>
                  <div className="flex gap-2">
                    <Button
                      size="sm"
                      variant="outline"
                      disabled={resend.isPending}
                      aria-label={`Uitnodiging voor ${i.email} opnieuw versturen`}
                      onClick={() =>
                        resend.mutate(i.id, {
                          onSuccess: (s) =>
                            s.mailSent
                              ? toast.success('De uitnodiging is opnieuw verstuurd')
                              : toast.error('De e-mail kon niet worden verstuurd'),
                          onError: (e) => toast.error('Opnieuw versturen is niet gelukt', errorText(e)),
                        })
                      }
                    >
                      <RefreshCw aria-hidden className="h-4 w-4" />
                      Opnieuw versturen
                    </Button>
                    <ConfirmDialog
                      trigger={
                        <Button
                          size="sm"
                          variant="ghost"
                          className="text-danger hover:bg-danger-soft"
                          aria-label={`Uitnodiging voor ${i.email} intrekken`}
                        >
                          <Trash2 aria-hidden className="h-4 w-4" />
                          Intrekken
                        </Button>
                      }
                      title="Uitnodiging intrekken?"
                      description={`De link in de e-mail aan ${i.email} werkt daarna niet meer.`}
                      confirmLabel="Intrekken"
                      destructive
                      onConfirm={async () => {
                        try {
                          await revoke.mutateAsync(i.id);
                          toast.success('De uitnodiging is ingetrokken');
                        } catch (e) {
                          toast.error('Intrekken is niet gelukt', errorText(e));
                          throw e;
                        }
                      }}
                    />
                  </div>
                </li>
              ))}
            </ul>
          )
        }
      </QueryState>
    </Section>
  );
}

function Members({ memorial, actor }: { memorial: Memorial; actor: MemberRole }) {
  const members = useMembers(memorial.id);
  const setRole = useSetRole(memorial.id);
  const remove = useRemoveMember(memorial.id);
  const items = members.data?.items ?? [];

  return (
    <Section
      title="Leden"
      description="Iedereen met een account die lid is van deze pagina, met wat ze mogen."
    >
      <QueryState
        query={members}
        skeleton={<Skeleton className="h-24 rounded-2xl" />}
        error="De leden konden niet worden geladen."
      >
        {() => (
          <ul className="divide-y divide-border rounded-2xl border border-border" aria-label="Leden">
            {items.map((m: Member) => {
              const options = m.isSelf ? [] : assignableRoles(actor, m.role);
              const canRemove =
                !m.isSelf &&
                (actor === 'owner' ||
                  (actor === 'editor' && (m.role === 'contributor' || m.role === 'guest')));
              const who = m.name ?? m.email ?? 'Lid';
              return (
                <li
                  key={m.id}
                  className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between"
                >
                  <div className="min-w-0">
                    <p className="font-medium">
                      {who}
                      {m.isSelf && <span className="font-normal text-muted"> (jij)</span>}
                    </p>
                    {m.email && m.name && <p className="text-sm break-all text-muted">{m.email}</p>}
                  </div>
                  <div className="flex items-center gap-2">
                    {options.length > 1 ? (
                      <label className="flex items-center gap-2 text-sm">
                        <span className="sr-only">Rol van {who}</span>
                        <select
                          value={m.role}
                          disabled={setRole.isPending}
                          onChange={(e) =>
                            setRole.mutate(
                              { memberId: m.id, role: e.target.value as MemberRole },
                              {
                                onSuccess: (u) =>
                                  toast.success(`${who} is nu ${memberRoleLabels[u.role].toLowerCase()}`),
                                onError: (err) =>
                                  toast.error('De rol kon niet worden gewijzigd', errorText(err)),
                              },
                            )
                          }
                          className="h-10 cursor-pointer rounded-full border border-input bg-card px-3 text-sm"
                        >
                          {options.map((r) => (
                            <option key={r} value={r}>
                              {memberRoleLabels[r]}
                            </option>
                          ))}
                        </select>
                      </label>
                    ) : (
                      <span
                        className={cn(
                          'rounded-full px-3 py-1 text-sm font-medium',
                          m.role === 'owner' ? 'bg-accent-soft text-accent' : 'bg-secondary',
                        )}
                      >
                        {memberRoleLabels[m.role]}
                      </span>
                    )}
                    {canRemove && (
                      <ConfirmDialog
                        trigger={
                          <Button
                            size="icon"
                            variant="ghost"
                            className="text-danger hover:bg-danger-soft"
                            aria-label={`${who} verwijderen`}
                          >
                            <UserMinus aria-hidden className="h-4 w-4" />
                          </Button>
                        }
                        title={`${who} verwijderen?`}
                        description="Deze persoon is dan geen lid meer en ziet de besloten pagina alleen nog met de toegangscode."
                        confirmLabel="Verwijderen"
                        destructive
                        onConfirm={async () => {
                          try {
                            await remove.mutateAsync(m.id);
                            toast.success(`${who} is verwijderd`);
                          } catch (e) {
                            toast.error('Verwijderen is niet gelukt', errorText(e));
                            throw e;
                          }
                        }}
                      />
                    )}
                  </div>
                </li>
              );
            })}
          </ul>
        )}
      </QueryState>
    </Section>
  );
}
