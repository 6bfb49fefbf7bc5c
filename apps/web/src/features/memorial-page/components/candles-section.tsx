import { useEffect, useRef, useState, type RefObject } from 'react';
import { useFormContext } from 'react-hook-form';
import { Flame, Flower2 } from 'lucide-react';
import { CANDLE_MESSAGE_MAX, candleCreateSchema, type Candle, type Memorial } from '@aandenken/contract';
import { Form, FormError, TextareaField, TextField } from '../../../components/form/form.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Container } from '../../../components/ui/container.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { cn } from '../../../lib/cn.ts';
import { formatCount } from '../../../lib/format.ts';
import { useCandles, useLightCandle } from '../api/candles.ts';
import { CandleArt } from './candle-art.tsx';
import { CANDLE_FORM_ANCHOR, CANDLE_FORM_SENT, CANDLE_NAME_ID } from './candle-ids.ts';
import { RelativeTime } from './relative-time.tsx';

/**
 * 'Steek een kaarsje aan' or 'leg een bloem neer': anyone who may see the page, with a name and a short
 * message. On an archived page (`canLight` false) the server takes no more, so the form gives way to a note.
 */
export function CandlesSection({
  memorial,
  defaultName,
  canLight,
}: {
  memorial: Memorial;
  defaultName: string;
  canLight: boolean;
}) {
  const candles = useCandles(memorial.id);
  const light = useLightCandle(memorial.id);
  const [lit, setLit] = useState<Candle | null>(null);
  const thanksRef = useRef<HTMLDivElement>(null);
  const serverError = useRef<HTMLDivElement>(null);
  const counts = candles.data?.pages[0]?.counts;
  const items = candles.data?.pages.flatMap((p) => p.items) ?? [];

  useEffect(() => {
    if (lit) thanksRef.current?.focus();
  }, [lit]);

  return (
    <section
      id="kaarsjes"
      aria-labelledby="candles-heading"
      className="below-fold scroll-mt-20 border-t border-border bg-background-soft py-14 sm:py-20"
    >
      <Container className="grid gap-12 lg:grid-cols-[minmax(0,6fr)_minmax(0,5fr)] lg:gap-16">
        <div>
          <h2 id="candles-heading" className="text-3xl font-semibold sm:text-4xl">
            Kaarsjes en bloemen
          </h2>
          <p className="mt-2 text-muted" aria-live="polite">
            {counts
              ? counts.total === 0
                ? canLight
                  ? `Steek als eerste een kaarsje aan voor ${memorial.firstName}.`
                  : `Er zijn geen kaarsjes of bloemen neergelegd voor ${memorial.firstName}.`
                : `${formatCount(counts.candle, 'kaarsje brandt', 'kaarsjes branden')} en ${formatCount(counts.flower, 'bloem is', 'bloemen zijn')} neergelegd voor ${memorial.firstName}.`
              : '\u00a0'}
          </p>

          <div className="mt-8 grid items-center gap-6 rounded-3xl border border-border bg-card p-6 shadow-soft sm:grid-cols-[7rem_minmax(0,1fr)] sm:p-8">
            <CandleArt className="mx-auto h-36 w-24 text-foreground sm:h-44" />
            {!canLight ? (
              <div className="text-center sm:text-left">
                <p className="font-serif text-2xl">Deze pagina is gearchiveerd.</p>
                <p className="mt-2 text-muted">
                  Er kunnen geen kaarsjes of bloemen meer bij. Wat er al staat, blijft hier bewaard.
                </p>
              </div>
            ) : lit ? (
              <div
                ref={thanksRef}
                tabIndex={-1}
                role="status"
                className="candle-new text-center focus:outline-none sm:text-left"
              >
                <p className="font-serif text-2xl">
                  {lit.kind === 'flower' ? 'Je bloem is neergelegd.' : 'Je kaarsje brandt.'}
                </p>
                <p className="mt-2 text-muted">
                  Dank je wel, {lit.name}. Het staat nu bij de andere{' '}
                  {lit.kind === 'flower' ? 'bloemen' : 'kaarsjes'}.
                </p>
                <Button variant="outline" className="mt-5" onClick={() => setLit(null)}>
                  Nog een kaarsje of bloem
                </Button>
              </div>
            ) : (
              // A real form before the page's script arrives (or without one): it posts to the page, which the
              // server answers (site/candle-form.ts). No default values: when the script takes over, the form
              // takes what was typed and chosen from the fields instead of resetting them.
              <Form
                schema={candleCreateSchema}
                id={CANDLE_FORM_ANCHOR}
                action={`#${CANDLE_FORM_SENT}`}
                aria-label="Kaarsje aansteken of bloem neerleggen"
                className="group/candle flex scroll-mt-24 flex-col gap-4"
                onSubmit={async (values, form) => {
                  serverError.current?.replaceChildren();
                  const candle = await light.mutateAsync(values);
                  form.reset({ kind: values.kind, name: values.name, message: '' });
                  setLit(candle);
                }}
              >
                {(form) => (
                  <CandleFields
                    busy={form.formState.isSubmitting}
                    defaultName={defaultName}
                    serverError={serverError}
                  />
                )}
              </Form>
            )}
          </div>
        </div>

        <div>
          <h3 className="font-sans text-sm font-semibold tracking-[0.18em] text-accent uppercase">
            Laatst aangestoken
          </h3>
          {candles.isPending ? (
            <div className="mt-5 flex flex-col gap-3">
              {[0, 1, 2].map((i) => (
                <Skeleton key={i} className="h-16 rounded-2xl" />
              ))}
            </div>
          ) : candles.isError ? (
            <p role="alert" className="mt-5 text-sm text-danger">
              De kaarsjes konden niet worden geladen. {candles.error.message}
            </p>
          ) : items.length === 0 ? (
            <p className="mt-5 text-muted">Nog geen kaarsjes of bloemen.</p>
          ) : (
            <>
              <ul className="mt-5 flex flex-col gap-3" aria-label="Kaarsjes en bloemen, nieuwste eerst">
                {items.map((c) => (
                  <li
                    key={c.id}
                    className={cn(
                      'flex gap-3 rounded-2xl border border-border bg-card p-4',
                      lit?.id === c.id && 'candle-new ring-2 ring-accent/40',
                    )}
                  >
                    <span
                      className={cn(
                        'flex h-9 w-9 shrink-0 items-center justify-center rounded-full',
                        c.kind === 'flower'
                          ? 'bg-accent-soft text-accent'
                          : 'bg-[#fff1d6] text-[#b86a10] dark:bg-[#3a2c14] dark:text-[#ffcf6b]',
                      )}
                    >
                      {c.kind === 'flower' ? (
                        <Flower2 aria-hidden className="h-4 w-4" />
                      ) : (
                        <Flame aria-hidden className="h-4 w-4" />
                      )}
                      <span className="sr-only">{c.kind === 'flower' ? 'Bloem' : 'Kaarsje'}</span>
                    </span>
                    <div className="min-w-0">
                      <p className="text-sm">
                        <span className="font-medium">{c.name}</span>{' '}
                        <span className="text-muted">
                          · <RelativeTime value={c.createdAt} />
                        </span>
                      </p>
                      {c.message && (
                        <p className="mt-0.5 text-sm leading-relaxed break-words text-muted">{c.message}</p>
                      )}
                    </div>
                  </li>
                ))}
              </ul>
              {candles.hasNextPage && (
                <Button
                  variant="ghost"
                  className="mt-4"
                  disabled={candles.isFetchingNextPage}
                  onClick={() => void candles.fetchNextPage()}
                >
                  {candles.isFetchingNextPage && <Spinner className="[&>span]:h-4 [&>span]:w-4" />}
                  Meer tonen
                </Button>
              )}
            </>
          )}
        </div>
      </Container>
    </section>
  );
}

function CandleFields({
  busy,
  defaultName,
  serverError,
}: {
  busy: boolean;
  defaultName: string;
  serverError: RefObject<HTMLDivElement | null>;
}) {
  const { register, watch } = useFormContext<{ kind: 'candle' | 'flower'; message?: string | null }>();
  const message = watch('message') ?? '';
  return (
    <>
      {/* Sent without the script, the server answers with the page at one of these (site/candle-form.ts). */}
      <p
        id="kaarsje-brandt"
        tabIndex={-1}
        className="hidden scroll-mt-24 rounded-xl bg-accent-soft px-4 py-3 font-serif text-xl focus:outline-none target:block"
      >
        Je kaarsje brandt. Dank je wel, het staat nu bij de andere kaarsjes.
      </p>
      <p
        id="bloem-ligt"
        tabIndex={-1}
        className="hidden scroll-mt-24 rounded-xl bg-accent-soft px-4 py-3 font-serif text-xl focus:outline-none target:block"
      >
        Je bloem is neergelegd. Dank je wel, ze ligt nu bij de andere bloemen.
      </p>
      <input type="hidden" name="formulier" value="kaarsje" />
      <fieldset>
        <legend className="sr-only">Wat wil je achterlaten?</legend>
        <div className="grid grid-cols-2 gap-1 rounded-full bg-secondary p-1">
          {(
            [
              ['candle', 'Kaarsje', Flame],
              ['flower', 'Bloem', Flower2],
            ] as const
          ).map(([value, label, Icon]) => (
            // The choice shows by the checked input (CSS), so it is right before the script has run too.
            <label
              key={value}
              className="flex cursor-pointer items-center justify-center gap-1.5 rounded-full px-3 py-2 text-sm font-medium text-muted transition-colors hover:text-foreground has-[:checked]:bg-card has-[:checked]:text-foreground has-[:checked]:shadow-sm has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-ring"
            >
              <input
                type="radio"
                id={`candle-kind-${value}`}
                value={value}
                defaultChecked={value === 'candle'}
                {...register('kind')}
                className="sr-only"
              />
              <Icon aria-hidden className="h-4 w-4" />
              {label}
            </label>
          ))}
        </div>
      </fieldset>
      <TextField
        name="name"
        id={CANDLE_NAME_ID}
        editableBeforeHydration
        defaultValue={defaultName || undefined}
        label="Je naam"
        required
        autoComplete="name"
        maxLength={80}
      />
      <TextareaField
        name="message"
        id="candle-message"
        editableBeforeHydration
        label="Bericht (niet verplicht)"
        rows={2}
        maxLength={CANDLE_MESSAGE_MAX}
        hint={<span aria-live="off">{`${message.length} / ${CANDLE_MESSAGE_MAX} tekens`}</span>}
        className="[&_textarea]:min-h-20"
      />
      {/* The server's reason when the form was sent without the script; kept as it is when React takes over. */}
      <div
        id="candle-form-error"
        ref={serverError}
        role="alert"
        className="rounded-xl border border-danger/40 bg-danger-soft px-4 py-3 text-sm text-danger empty:hidden"
        dangerouslySetInnerHTML={{ __html: '' }}
      />
      <FormError />
      <Button type="submit" size="lg" disabled={busy} className="w-full sm:w-auto sm:self-start">
        {busy ? (
          <Spinner className="[&>span]:h-5 [&>span]:w-5" />
        ) : (
          <>
            <Flame aria-hidden className="h-4 w-4 group-has-[#candle-kind-flower:checked]/candle:hidden" />
            <Flower2
              aria-hidden
              className="hidden h-4 w-4 group-has-[#candle-kind-flower:checked]/candle:block"
            />
          </>
        )}
        {/* Which one by the checked choice (CSS): right before the script has run too. */}
        <span className="group-has-[#candle-kind-flower:checked]/candle:hidden">Steek een kaarsje aan</span>
        <span className="hidden group-has-[#candle-kind-flower:checked]/candle:inline">
          Leg een bloem neer
        </span>
      </Button>
    </>
  );
}
