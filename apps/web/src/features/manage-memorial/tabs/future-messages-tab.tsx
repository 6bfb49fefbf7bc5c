import { useState } from 'react';
import { Ban, MailPlus, Pencil } from 'lucide-react';
import * as z from 'zod/mini';
import {
  FUTURE_MESSAGE_BODY_MAX,
  futureMessageStatusLabels,
  type FutureMessage,
  type Memorial,
} from '@aandenken/contract';
import { Form, FormError, SubmitButton, TextareaField, TextField } from '../../../components/form/form.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { cn } from '../../../lib/cn.ts';
import { toast } from '../../../lib/toast.ts';
import { serviceDateNl } from '../../../lib/memorials/services.ts';
import { useCancelFutureMessage, useFutureMessages, useSaveFutureMessage } from '../api/future-messages.ts';
import { errorText, Section } from '../components/section.tsx';
import { SubscriptionsSection } from './subscriptions-section.tsx';

/** The form holds text; the contract's rules on the server check what is sent and name the fields. */
const formSchema = z.object({
  subject: z.string(),
  body: z.string(),
  sendDate: z.string(),
  sendTime: z.string(),
});

const statusClass: Record<FutureMessage['status'], string> = {
  scheduled: 'bg-secondary',
  sent: 'bg-success-soft text-success',
  cancelled: 'bg-secondary text-muted',
};

/**
 * 'Berichten': future messages (docs/funeral-day.md). Owners and editors write a message now that goes on a
 * chosen day (Dutch time) to everyone connected to the page; until then it can be changed or cancelled. The
 * plan's limit is shown before it bites. Its own chunk: loaded when the tab opens.
 */
export default function FutureMessagesTab({ memorial }: { memorial: Memorial }) {
  const messages = useFutureMessages(memorial.id);
  const [editing, setEditing] = useState<FutureMessage | 'new' | null>(null);
  const full = messages.data && messages.data.limit !== null && messages.data.used >= messages.data.limit;
  return (
    <div className="flex flex-col gap-8">
      <Section
        title="Toekomstige berichten"
        description="Schrijf nu een bericht dat op een gekozen dag (bijvoorbeeld een verjaardag of de sterfdag) per e-mail naar iedereen gaat die met de pagina verbonden is: de leden en bezoekers die hun adres achterlieten en toestemming gaven. Tot het verstuurd is, kun je het wijzigen of annuleren."
        actions={
          editing === null && (
            <Button onClick={() => setEditing('new')} disabled={!!full}>
              <MailPlus aria-hidden className="h-4 w-4" />
              Bericht schrijven
            </Button>
          )
        }
      >
        <QueryState
          query={messages}
          skeleton={<Skeleton className="h-24 rounded-2xl" />}
          error="De berichten konden niet worden geladen."
        >
          {(data) => (
            <>
              <p className="mb-4 text-sm" aria-live="polite">
                {data.limit === null
                  ? 'Met dit abonnement kun je onbeperkt berichten plannen.'
                  : `Met het Basis-abonnement kan de pagina ${data.limit === 1 ? 'één toekomstig bericht' : `${data.limit} toekomstige berichten`} hebben (${data.used} gebruikt). Met Premium zijn toekomstige berichten onbeperkt.`}{' '}
                Een bericht zou nu naar{' '}
                <strong>
                  {data.recipients} {data.recipients === 1 ? 'adres' : 'adressen'}
                </strong>{' '}
                gaan.
              </p>
              {editing !== null && (
                <MessageForm
                  memorialId={memorial.id}
                  message={editing === 'new' ? null : editing}
                  onDone={() => setEditing(null)}
                />
              )}
              {data.messages.length === 0 ? (
                editing === null && <p className="text-muted">Er staat nog geen bericht klaar.</p>
              ) : (
                <ul className="flex flex-col gap-4" aria-label="Berichten">
                  {data.messages.map((m) => (
                    <li key={m.id} className="rounded-2xl border border-border p-4 sm:p-5">
                      <MessageRow memorialId={memorial.id} message={m} onEdit={() => setEditing(m)} />
                    </li>
                  ))}
                </ul>
              )}
            </>
          )}
        </QueryState>
      </Section>
      <SubscriptionsSection memorial={memorial} />
    </div>
  );
}

function MessageRow({
  memorialId,
  message: m,
  onEdit,
}: {
  memorialId: string;
  message: FutureMessage;
  onEdit: () => void;
}) {
  const cancel = useCancelFutureMessage(memorialId);
  const when = `${serviceDateNl(m.sendDate)}, ${m.sendTime} uur`;
  return (
    <div>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h3 className="text-lg font-semibold break-words">{m.subject}</h3>
          <p className="text-sm text-muted">
            {when}
            {m.status === 'sent' && m.recipientCount !== null
              ? ` · naar ${m.recipientCount} ${m.recipientCount === 1 ? 'adres' : 'adressen'}`
              : ''}
            {m.status === 'sent' && m.skippedCount
              ? ` · ${m.skippedCount} ${m.skippedCount === 1 ? 'aanmelding' : 'aanmeldingen'} zonder toegang overgeslagen`
              : ''}
          </p>
          <p className="mt-2">
            <span className={cn('rounded-full px-2.5 py-1 text-xs font-medium', statusClass[m.status])}>
              {futureMessageStatusLabels[m.status]}
            </span>
          </p>
        </div>
        {m.status === 'scheduled' && (
          <div className="flex gap-2">
            <Button
              variant="outline"
              size="sm"
              onClick={onEdit}
              aria-label={`Bericht ‘${m.subject}’ wijzigen`}
            >
              <Pencil aria-hidden className="h-4 w-4" />
              Wijzigen
            </Button>
            <ConfirmDialog
              trigger={
                <Button variant="ghost" size="sm" aria-label={`Bericht ‘${m.subject}’ annuleren`}>
                  <Ban aria-hidden className="h-4 w-4" />
                  Annuleren
                </Button>
              }
              title="Bericht annuleren?"
              description="Het bericht wordt niet verstuurd. Dat kan niet ongedaan worden gemaakt."
              confirmLabel="Bericht annuleren"
              destructive
              onConfirm={async () => {
                try {
                  await cancel.mutateAsync(m);
                  toast.success('Het bericht is geannuleerd');
                } catch (e) {
                  toast.error('Het bericht kon niet worden geannuleerd', errorText(e));
                  throw e;
                }
              }}
            />
          </div>
        )}
      </div>
      <p className="mt-3 line-clamp-3 text-sm whitespace-pre-line">{m.body}</p>
    </div>
  );
}

function MessageForm({
  memorialId,
  message,
  onDone,
}: {
  memorialId: string;
  message: FutureMessage | null;
  onDone: () => void;
}) {
  const save = useSaveFutureMessage(memorialId);
  return (
    <Form
      schema={formSchema}
      defaultValues={{
        subject: message?.subject ?? '',
        body: message?.body ?? '',
        sendDate: message?.sendDate ?? '',
        sendTime: message?.sendTime ?? '09:00',
      }}
      aria-label={message ? 'Bericht wijzigen' : 'Bericht schrijven'}
      className="mb-8 grid gap-4 rounded-2xl border border-border bg-background-soft p-4 sm:grid-cols-2 sm:p-6"
      onSubmit={async (values) => {
        await save.mutateAsync({ id: message?.id ?? null, input: values });
        toast.success(message ? 'Het bericht is gewijzigd' : 'Het bericht staat klaar');
        onDone();
      }}
    >
      {() => (
        <>
          <TextField name="subject" label="Onderwerp" required className="sm:col-span-2" />
          <TextareaField
            name="body"
            label="Bericht"
            required
            rows={8}
            maxLength={FUTURE_MESSAGE_BODY_MAX}
            className="sm:col-span-2"
          />
          <TextField name="sendDate" label="Verstuurdatum" type="date" required />
          <TextField name="sendTime" label="Tijd (Nederlandse tijd)" type="time" required />
          <FormError className="sm:col-span-2" />
          <div className="flex flex-wrap gap-3 sm:col-span-2">
            <SubmitButton busyLabel="Opslaan...">{message ? 'Opslaan' : 'Inplannen'}</SubmitButton>
            <Button variant="ghost" onClick={onDone}>
              Terug
            </Button>
          </div>
        </>
      )}
    </Form>
  );
}
