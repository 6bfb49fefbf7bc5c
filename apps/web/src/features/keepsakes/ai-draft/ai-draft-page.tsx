import { Fragment, useEffect, useRef, useState, type ReactNode } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { AlertTriangle, ArrowLeft, Check, Lock, Sparkles, Square } from 'lucide-react';
import {
  roleAtLeast,
  routes,
  type AiDraftInfo,
  type AiDraftParagraph,
  type AiDraftSource,
  type Memorial,
} from '@aandenken/contract';
import { MemorialUnavailable } from '../../../components/memorial/memorial-unavailable.tsx';
import { Button, buttonClass } from '../../../components/ui/button.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { Container } from '../../../components/ui/container.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { PageSpinner, Spinner } from '../../../components/ui/spinner.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useSignInRequired } from '../../../components/auth/sign-in-required.ts';
import { fullName } from '../../../lib/memorials/life.ts';
import { useMemorial } from '../../../lib/memorials/queries.ts';
import { toast } from '../../../lib/toast.ts';
import { stripSourceTags, useAiDraftInfo, useSaveDraftAsBiography, useStreamDraft } from './api.ts';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

type Phase =
  | { kind: 'idle' }
  | { kind: 'writing'; text: string }
  | { kind: 'done'; paragraphs: AiDraftParagraph[] }
  | { kind: 'error'; message: string; text: string };

/** /memorial/{id}/levensverhaal/concept: a biography draft written by the configured AI endpoint (Premium). */
export default function AiDraftPage() {
  const { id = '' } = useParams();
  const auth = useSignInRequired();
  const memorial = useMemorial(id, auth.status === 'authenticated');

  const m = memorial.data;
  const allowed = !!m && roleAtLeast(m.role, 'editor');
  const info = useAiDraftInfo(id, allowed);

  if (auth.status !== 'authenticated' || memorial.isPending) return <PageSpinner />;
  if (memorial.isError || !m || !allowed) return <MemorialUnavailable />;

  return (
    <Container className="max-w-3xl py-10 sm:py-14">
      <title>{`Concept levensverhaal van ${fullName(m)} · Aandenken`}</title>
      <Link
        to={routes.memorialBiographyHelp(m.id)}
        className="inline-flex items-center gap-1.5 rounded-md text-sm font-medium text-primary hover:underline"
      >
        <ArrowLeft aria-hidden className="h-4 w-4" />
        Naar de vragenlijst
      </Link>
      <h1 className="mt-3 font-serif text-3xl font-semibold sm:text-4xl">
        <span className="block font-sans text-base font-normal text-muted sm:text-lg">
          Concept laten schrijven met AI
        </span>
        {fullName(m)}
      </h1>
      <p className="mt-4 leading-relaxed text-muted">
        Een AI-taalmodel schrijft uit je antwoorden en gekozen herinneringen een eerste versie van het
        levensverhaal. Het is een concept: het mag alleen gebruiken wat in die bronnen staat, en bij elke
        alinea zie je waar die vandaan komt. Op de pagina verandert niets tot je het concept zelf gebruikt.
      </p>
      <div className="mt-8">
        <QueryState
          query={info}
          skeleton={<Skeleton className="h-96 rounded-2xl" />}
          error="Het scherm kon niet worden geladen."
        >
          {(data) => <DraftScreen memorial={m} info={data} />}
        </QueryState>
      </div>
    </Container>
  );
}

function Notice({ icon, title, children }: { icon: ReactNode; title: string; children: ReactNode }) {
  return (
    <section
      aria-labelledby="ai-uit"
      className="rounded-3xl border border-border bg-card p-6 shadow-soft sm:p-8"
      data-testid="ai-draft-off"
    >
      <h2 id="ai-uit" className="flex items-center gap-2 font-serif text-2xl font-semibold">
        {icon}
        {title}
      </h2>
      <div className="mt-3 space-y-3 leading-relaxed text-muted">{children}</div>
    </section>
  );
}

/** The screen's body: the Premium or 'AI staat uit' notice, or the composer. */
export function DraftScreen({ memorial, info }: { memorial: Memorial; info: AiDraftInfo }) {
  if (!info.planAllows) {
    return (
      <Notice icon={<Lock aria-hidden className="h-5 w-5" />} title="Dit hoort bij Premium">
        <p>
          Een concept laten schrijven met AI hoort bij het Premium-abonnement. Deze pagina heeft het
          Basis-abonnement. De vragenlijst en het zelf schrijven blijven gewoon beschikbaar.
        </p>
        {!info.enabled && <p>Ook staat AI op deze server op dit moment uit.</p>}
        <p>
          <Link to={routes.payment(memorial.id)} className={buttonClass('primary', 'md')}>
            Kies Premium
          </Link>
        </p>
      </Notice>
    );
  }
  if (!info.enabled) {
    return (
      <Notice icon={<AlertTriangle aria-hidden className="h-5 w-5" />} title="AI staat uit">
        <p>
          Op deze server is geen AI-dienst ingesteld, dus er wordt niets naar een taalmodel gestuurd. Je kunt
          het levensverhaal zelf schrijven, of er een maken uit de antwoorden van de vragenlijst.
        </p>
      </Notice>
    );
  }
  return <Composer memorial={memorial} info={info} />;
}

function Composer({ memorial, info }: { memorial: Memorial; info: AiDraftInfo }) {
  const navigate = useNavigate();
  const stream = useStreamDraft(memorial.id);
  const save = useSaveDraftAsBiography(memorial.id);
  const [answers, setAnswers] = useState(() => new Set(info.answers.map((a) => a.questionKey)));
  const [memories, setMemories] = useState(() => new Set<string>());
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const [refusal, setRefusal] = useState<string | null>(null);
  const abort = useRef<AbortController | null>(null);
  const resultRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => () => abort.current?.abort(), []);
  useEffect(() => {
    if (phase.kind === 'done' || phase.kind === 'error') resultRef.current?.focus();
  }, [phase.kind]);

  const toggle = (set: Set<string>, update: (s: Set<string>) => void, key: string) => {
    const next = new Set(set);
    if (next.has(key)) next.delete(key);
    else next.add(key);
    update(next);
  };
  const nothing = answers.size + memories.size === 0;
  const writing = phase.kind === 'writing';

  const start = async () => {
    abort.current?.abort();
    const controller = new AbortController();
    abort.current = controller;
    setRefusal(null);
    setPhase({ kind: 'writing', text: '' });
    let text = '';
    try {
      await stream(
        { answerKeys: [...answers], memoryIds: [...memories] },
        (e) => {
          if (e.type === 'delta') {
            text += e.text;
            setPhase({ kind: 'writing', text });
          } else if (e.type === 'done') setPhase({ kind: 'done', paragraphs: e.paragraphs });
          else if (e.type === 'error') setPhase({ kind: 'error', message: e.message, text });
        },
        controller.signal,
      );
    } catch (e) {
      setPhase({ kind: 'idle' });
      setRefusal(
        e instanceof ApiError ? e.message : 'Er ging iets mis. Er is niets veranderd; probeer het opnieuw.',
      );
    }
  };
  const stop = () => {
    abort.current?.abort();
    setPhase({ kind: 'idle' });
  };

  const use = async (paragraphs: AiDraftParagraph[]) => {
    const html = paragraphs.map((p) => `<p>${escapeHtml(p.text)}</p>`).join('\n');
    try {
      await save.mutateAsync(html);
    } catch (e) {
      toast.error('Het concept is niet opgeslagen', e instanceof Error ? e.message : undefined);
      throw e;
    }
    toast.success('Het concept staat nu in het levensverhaal', 'Pas het aan zoals je wilt en sla het op.');
    void navigate(routes.memorialManage(memorial.id, 'levensverhaal'));
  };

  const sourceLabel = (s: AiDraftSource) => {
    if (s.kind === 'answer') {
      const a = info.answers.find((x) => x.questionKey === s.key);
      return a ? `Antwoord: ${a.question}` : 'Antwoord';
    }
    const mem = info.memories.find((x) => x.id === s.id);
    return mem ? `Herinnering van ${mem.author} (${mem.yearLabel})` : 'Herinnering';
  };

  return (
    <div className="space-y-8">
      <section
        aria-labelledby="waarheen"
        className="rounded-3xl border border-border bg-accent-soft p-6 sm:p-8"
        data-testid="ai-draft-privacy"
      >
        <h2 id="waarheen" className="font-serif text-xl font-semibold">
          Wat er wordt verstuurd, en waarheen
        </h2>
        <p className="mt-2 leading-relaxed">
          Alleen wat je hieronder aanvinkt gaat naar de AI-dienst op <strong>{info.endpointHost}</strong>{' '}
          (model {info.model}), samen met de naam van {memorial.firstName} en de datum en plaats van geboorte
          en overlijden. Wie een herinnering schreef, wordt niet meegestuurd. Aandenken bewaart het concept
          niet; het blijft op dit scherm tot je het gebruikt.
        </p>
      </section>

      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (!nothing && !writing) void start();
        }}
        className="rounded-3xl border border-border bg-card p-6 shadow-soft sm:p-8"
        aria-labelledby="bronnen"
      >
        <h2 id="bronnen" className="font-serif text-2xl font-semibold">
          Bronnen kiezen
        </h2>
        <fieldset className="mt-5">
          <legend className="text-lg font-medium">Antwoorden uit de vragenlijst</legend>
          {info.answers.length === 0 ? (
            <p className="mt-2 text-sm text-muted">
              Nog geen antwoorden.{' '}
              <Link to={routes.memorialBiographyHelp(memorial.id)} className="text-primary underline">
                Vul eerst de vragenlijst in
              </Link>
              .
            </p>
          ) : (
            <ul className="mt-3 space-y-3">
              {info.answers.map((a) => (
                <li key={a.questionKey}>
                  <label className="flex items-start gap-3">
                    <input
                      type="checkbox"
                      className="mt-1.5 h-4 w-4 accent-primary"
                      checked={answers.has(a.questionKey)}
                      onChange={() => toggle(answers, setAnswers, a.questionKey)}
                      disabled={writing}
                    />
                    <span>
                      <span className="block font-medium">{a.question}</span>
                      <span className="line-clamp-2 text-sm text-muted">{a.text}</span>
                    </span>
                  </label>
                </li>
              ))}
            </ul>
          )}
        </fieldset>
        <fieldset className="mt-6">
          <legend className="text-lg font-medium">Gepubliceerde herinneringen</legend>
          <p className="mt-1 text-sm text-muted">
            Herinneringen zijn door anderen geschreven: kies zelf welke mee mogen.
          </p>
          {info.memories.length === 0 ? (
            <p className="mt-2 text-sm text-muted">Er staan nog geen herinneringen op de pagina.</p>
          ) : (
            <ul className="mt-3 max-h-96 space-y-3 overflow-y-auto">
              {info.memories.map((mem) => (
                <li key={mem.id}>
                  <label className="flex items-start gap-3">
                    <input
                      type="checkbox"
                      className="mt-1.5 h-4 w-4 accent-primary"
                      checked={memories.has(mem.id)}
                      onChange={() => toggle(memories, setMemories, mem.id)}
                      disabled={writing}
                    />
                    <span>
                      <span className="block font-medium">
                        {mem.yearLabel} · {mem.author}
                      </span>
                      <span className="line-clamp-2 text-sm text-muted">{mem.body}</span>
                    </span>
                  </label>
                </li>
              ))}
            </ul>
          )}
        </fieldset>
        <div className="mt-6 flex flex-wrap items-center gap-3">
          <Button type="submit" disabled={nothing || writing}>
            {writing ? (
              <Spinner className="[&>span]:h-4 [&>span]:w-4" />
            ) : (
              <Sparkles aria-hidden className="h-4 w-4" />
            )}
            {phase.kind === 'done' || phase.kind === 'error' ? 'Opnieuw schrijven' : 'Concept schrijven'}
          </Button>
          {writing && (
            <Button variant="outline" onClick={stop}>
              <Square aria-hidden className="h-4 w-4" />
              Stoppen
            </Button>
          )}
          {nothing && <p className="text-sm text-muted">Kies minstens één antwoord of herinnering.</p>}
        </div>
        {refusal && (
          <p role="alert" className="mt-4 rounded-2xl border border-danger/40 p-4 text-danger">
            {refusal}
          </p>
        )}
      </form>

      {phase.kind !== 'idle' && (
        <section
          aria-labelledby="concept"
          aria-busy={writing}
          className="rounded-3xl border-2 border-dashed border-border bg-card p-6 sm:p-8"
          data-testid="ai-draft"
        >
          <div className="flex flex-wrap items-center gap-3">
            <h2
              id="concept"
              ref={resultRef}
              tabIndex={-1}
              className="font-serif text-2xl font-semibold focus:outline-none"
            >
              Concept
            </h2>
            <span className="rounded-full bg-secondary px-3 py-0.5 text-sm font-medium text-secondary-foreground">
              Nog niet gebruikt
            </span>
          </div>
          <p role="status" className="mt-2 text-sm text-muted">
            {writing
              ? 'Het concept wordt geschreven…'
              : phase.kind === 'done'
                ? 'Klaar. Lees het na: gemarkeerde woorden staan niet in de bronnen.'
                : ''}
          </p>
          {phase.kind === 'writing' && (
            <div className="mt-4 font-serif leading-relaxed whitespace-pre-line" data-testid="ai-draft-live">
              {stripSourceTags(phase.text)}
            </div>
          )}
          {phase.kind === 'error' && (
            <div role="alert" className="mt-4 rounded-2xl border border-danger/40 p-4">
              <p className="text-danger">{phase.message}</p>
            </div>
          )}
          {phase.kind === 'done' && (
            <>
              <ol className="mt-4 space-y-5" aria-label="Alinea’s van het concept">
                {phase.paragraphs.map((p, i) => (
                  <li key={i} className="rounded-2xl bg-background-soft p-4" data-testid="ai-draft-paragraph">
                    <p className="font-serif leading-relaxed">
                      <Highlighted text={p.text} flagged={p.flagged} />
                    </p>
                    {p.flagged.length > 0 && (
                      <p className="mt-2 flex items-start gap-1.5 text-sm" data-testid="ai-draft-flagged">
                        <AlertTriangle aria-hidden className="mt-0.5 h-4 w-4 shrink-0 text-danger" />
                        <span>
                          Niet gevonden in de bronnen, controleer dit: <strong>{p.flagged.join(', ')}</strong>
                        </span>
                      </p>
                    )}
                    <p className="mt-2 text-sm text-muted">
                      {p.sources.length > 0
                        ? `Bronnen: ${p.sources.map(sourceLabel).join('; ')}`
                        : 'Geen bron genoemd: controleer deze alinea extra goed.'}
                    </p>
                  </li>
                ))}
              </ol>
              <div className="mt-6 flex flex-wrap gap-3">
                {info.hasBiography ? (
                  <ConfirmDialog
                    trigger={
                      <Button disabled={save.isPending}>
                        <Check aria-hidden className="h-4 w-4" />
                        Gebruik dit concept
                      </Button>
                    }
                    title="Bestaand levensverhaal vervangen?"
                    description="Het levensverhaal dat nu op de pagina staat, wordt vervangen door dit concept. Dit kun je niet ongedaan maken."
                    confirmLabel="Ja, vervangen"
                    destructive
                    onConfirm={() => use(phase.paragraphs)}
                  />
                ) : (
                  <Button
                    disabled={save.isPending}
                    onClick={() => void use(phase.paragraphs).catch(() => undefined)}
                  >
                    <Check aria-hidden className="h-4 w-4" />
                    Gebruik dit concept
                  </Button>
                )}
                <Button variant="outline" onClick={() => setPhase({ kind: 'idle' })}>
                  Weggooien
                </Button>
              </div>
              {info.hasBiography && (
                <p className="mt-3 text-sm text-muted">
                  Er staat al een levensverhaal op de pagina; dat blijft staan tot je bevestigt.
                </p>
              )}
            </>
          )}
        </section>
      )}
    </div>
  );
}

/** The paragraph with the flagged names and dates marked. */
export function Highlighted({ text, flagged }: { text: string; flagged: string[] }) {
  if (flagged.length === 0) return <>{text}</>;
  const re = new RegExp(
    `(${[...flagged]
      .sort((a, b) => b.length - a.length)
      .map((f) => f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('|')})`,
    'g',
  );
  return (
    <>
      {text.split(re).map((part, i) =>
        i % 2 === 1 ? (
          <mark
            key={i}
            className="rounded bg-danger-soft px-0.5 text-foreground underline decoration-danger decoration-wavy"
          >
            {part}
            <span className="sr-only"> (niet in de bronnen)</span>
          </mark>
        ) : (
          <Fragment key={i}>{part}</Fragment>
        ),
      )}
    </>
  );
}
