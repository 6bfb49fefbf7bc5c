import { Mail, RefreshCw, Trash2 } from 'lucide-react';
import { memberRoleLabels, type Invite, type Memorial } from '@aandenken/contract';
import { Button } from '../../../../components/ui/button.tsx';
import { ConfirmDialog } from '../../../../components/ui/confirm-dialog.tsx';
import { Skeleton } from '../../../../components/ui/skeleton.tsx';
import { QueryState } from '../../../../components/ui/query-state.tsx';
import { formatDate } from '../../../../lib/format.ts';
import { toast } from '../../../../lib/toast.ts';
import { useOpenInvites, useResendInvite, useRevokeInvite } from '../../api/people.ts';
import { errorText, Section } from '../section.tsx';

/** The invitations not yet accepted: send again (a new link) or revoke. */
export function OpenInvites({ memorial }: { memorial: Memorial }) {
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
                          onSuccess: () => toast.success('De uitnodiging is opnieuw verstuurd'),
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
