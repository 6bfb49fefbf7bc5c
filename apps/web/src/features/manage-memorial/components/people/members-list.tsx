import { UserMinus } from 'lucide-react';
import { memberRoleLabels, type Member, type MemberRole, type Memorial } from '@aandenken/contract';
import { Button } from '../../../../components/ui/button.tsx';
import { ConfirmDialog } from '../../../../components/ui/confirm-dialog.tsx';
import { Skeleton } from '../../../../components/ui/skeleton.tsx';
import { QueryState } from '../../../../components/ui/query-state.tsx';
import { cn } from '../../../../lib/cn.ts';
import { toast } from '../../../../lib/toast.ts';
import { useMembers, useRemoveMember, useSetRole } from '../../api/people.ts';
import { errorText, Section } from '../section.tsx';
import { assignableRoles } from './roles.ts';

/** The members with their roles: change a role or remove someone, as far as the caller may. */
export function MembersList({ memorial, actor }: { memorial: Memorial; actor: MemberRole }) {
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
