import { Mail, Trash2 } from 'lucide-react';
import {
  subscriptionAccessViaLabels,
  subscriptionKindLabels,
  type Memorial,
  type Subscription,
} from '@aandenken/contract';
import { Button } from '../../../components/ui/button.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { formatDate } from '../../../lib/format.ts';
import { toast } from '../../../lib/toast.ts';
import { useRemoveSubscription, useSubscriptions } from '../api/future-messages.ts';
import { errorText, Section } from '../components/section.tsx';

const lower = (s: string) => s.charAt(0).toLowerCase() + s.slice(1);

/**
 * 'Blijf verbonden' for the family: who signed up for the family's messages and reminders (confirmed
 * addresses), how and when, whether mail still reaches them, and removing a sign-up.
 */
export function SubscriptionsSection({ memorial }: { memorial: Memorial }) {
  const signUps = useSubscriptions(memorial.id);
  return (
    <Section
      title="Blijf verbonden"
      description="Wie zich op de pagina heeft aangemeld voor berichten van de familie of herinneringen. Er gaat alleen iets naartoe zolang iemand de pagina mag zien: wie zich met een toegangscode aanmeldde, krijgt niets meer na een nieuwe code of als de pagina alleen op uitnodiging te openen is. Verwijder je een aanmelding, dan gaat er niets meer naartoe."
    >
      <QueryState
        query={signUps}
        skeleton={<Skeleton className="h-20 rounded-2xl" />}
        error="De aanmeldingen konden niet worden geladen."
      >
        {(data) =>
          data.subscriptions.length === 0 ? (
            <p className="text-sm text-muted">Nog niemand heeft zich aangemeld.</p>
          ) : (
            <ul className="divide-y divide-border rounded-2xl border border-border" aria-label="Aanmeldingen">
              {data.subscriptions.map((s) => (
                <SubscriptionRow key={s.id} memorialId={memorial.id} subscription={s} />
              ))}
            </ul>
          )
        }
      </QueryState>
    </Section>
  );
}

function SubscriptionRow({
  memorialId,
  subscription: s,
}: {
  memorialId: string;
  subscription: Subscription;
}) {
  const remove = useRemoveSubscription(memorialId);
  const kinds = s.kinds.map((k) => lower(subscriptionKindLabels[k])).join(', ');
  return (
    <li className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0">
        <p className="flex items-center gap-2 font-medium break-all">
          <Mail aria-hidden className="h-4 w-4 shrink-0 text-muted" />
          {s.name ? `${s.name} (${s.email})` : s.email}
        </p>
        <p className="mt-0.5 text-sm text-muted">
          {subscriptionAccessViaLabels[s.via]} · aangemeld op {formatDate(s.confirmedAt)}
          {kinds && ` · ${kinds}`}
        </p>
        {!s.hasAccess && (
          <p className="mt-2">
            <span className="rounded-full bg-secondary px-2.5 py-1 text-xs font-medium">
              Heeft geen toegang meer en krijgt niets
            </span>
          </p>
        )}
      </div>
      <ConfirmDialog
        trigger={
          <Button
            size="sm"
            variant="ghost"
            className="self-start text-danger hover:bg-danger-soft sm:self-center"
            aria-label={`Aanmelding van ${s.email} verwijderen`}
          >
            <Trash2 aria-hidden className="h-4 w-4" />
            Verwijderen
          </Button>
        }
        title="Aanmelding verwijderen?"
        description={`Naar ${s.email} gaan dan geen berichten of herinneringen van deze pagina meer.${
          s.via === 'member'
            ? ' Leden krijgen de berichten van de familie wel op het adres van hun account.'
            : ''
        }`}
        confirmLabel="Verwijderen"
        destructive
        onConfirm={async () => {
          try {
            await remove.mutateAsync(s);
            toast.success('De aanmelding is verwijderd');
          } catch (e) {
            toast.error('Verwijderen is niet gelukt', errorText(e));
            throw e;
          }
        }}
      />
    </li>
  );
}
