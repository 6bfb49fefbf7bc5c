import { useCallback, useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { AlertCircle, ArrowLeft, ArrowRight, Check, Cloud, Sparkles } from 'lucide-react';
import {
  BIOGRAPHY_ANSWER_MAX_CHARS,
  biographyPeriods,
  roleAtLeast,
  routes,
  type BiographyTemplate,
  type Memorial,
} from '@aandenken/contract';
import { MemorialUnavailable } from '../../../components/memorial/memorial-unavailable.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { Container } from '../../../components/ui/container.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { PageSpinner, Spinner } from '../../../components/ui/spinner.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useSignInRequired } from '../../../components/auth/sign-in-required.ts';
import { cn } from '../../../lib/cn.ts';
import { fullName } from '../../../lib/memorials/life.ts';
import { useMemorial } from '../../../lib/memorials/queries.ts';
import { toast } from '../../../lib/toast.ts';
import { useBiographyTemplate, useGenerateBiography, useSaveAnswer } from './api.ts';

/** An answer is saved this long after the last key stroke (and at once when the field is left). */
export const AUTOSAVE_DELAY_MS = 700;

const textareaClass =
  'w-full min-h-36 resize-y rounded-xl border border-input bg-card px-4 py-2.5 text-base leading-relaxed text-foreground shadow-sm transition-colors placeholder:text-muted/70 hover:border-muted/60 focus-visible:border-ring focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-ring aria-[invalid=true]:border-danger';

type SaveState = 'saving' | 'saved' | 'error';

/** /memorial/{id}/levensverhaal: questions per period of life, answered in steps, saved as you go. */
export default function BiographyHelpPage() {
  const { id = '' } = useParams();
  const auth = useSignInRequired();
  const memorial = useMemorial(id, auth.status === 'authenticated');

  const m = memorial.data;
  const allowed = !!m && roleAtLeast(m.role, 'editor');
  const template = useBiographyTemplate(id, allowed);

  if (auth.status !== 'authenticated' || memorial.isPending) return <PageSpinner />;
  if (memorial.isError || !m || !allowed) return <MemorialUnavailable />;

  return (
    <Container className="max-w-3xl py-10 sm:py-14">
      <title>{`Hulp bij het levensverhaal van ${fullName(m)} · Aandenken`}</title>
      <Link
        to={routes.memorialManage(m.id, 'levensverhaal')}
        className="inline-flex items-center gap-1.5 rounded-md text-sm font-medium text-primary hover:underline"
      >
        <ArrowLeft aria-hidden className="h-4 w-4" />
        Naar het levensverhaal
      </Link>
      <h1 className="mt-3 font-serif text-3xl font-semibold sm:text-4xl">
        <span className="block font-sans text-base font-normal text-muted sm:text-lg">
          Hulp bij het levensverhaal
        </span>
        {fullName(m)}
      </h1>
      <p className="mt-4 leading-relaxed text-muted">
        Beantwoord de vragen in je eigen woorden, zo kort of lang als je wilt. Sla gerust vragen over. Alles
        wordt vanzelf bewaard, dus je kunt altijd stoppen en later verdergaan. Aan het eind maken we er een
        eerste levensverhaal van, dat je daarna helemaal naar je hand zet.
      </p>
      <div className="mt-8">
        <QueryState
          query={template}
          skeleton={<Skeleton className="h-96 rounded-2xl" />}
          error="De vragen konden niet worden geladen."
        >
          {(data) => <Stepper memorial={m} template={data} />}
        </QueryState>
      </div>
    </Container>
  );
}

function Stepper({ memorial, template }: { memorial: Memorial; template: BiographyTemplate }) {
  const navigate = useNavigate();
  const save = useSaveAnswer(memorial.id);
  const generate = useGenerateBiography(memorial.id);
  const [values, setValues] = useState<Record<string, string>>(() =>
    Object.fromEntries(template.answers.map((a) => [a.questionKey, a.text])),
  );
  const [states, setStates] = useState<Record<string, SaveState>>({});
  const [errorText, setErrorText] = useState<string | null>(null);
  const [step, setStep] = useState(0);
  const timers = useRef(new Map<string, number>());
  const pending = useRef(new Map<string, string>());
  const seq = useRef(new Map<string, number>());
  const headingRef = useRef<HTMLHeadingElement>(null);
  const first = useRef(true);
  const steps = biographyPeriods.length + 1;
  const finalStep = step === biographyPeriods.length;

  const saveNow = useCallback(
    (key: string, text: string) => {
      const n = (seq.current.get(key) ?? 0) + 1;
      seq.current.set(key, n);
      pending.current.delete(key);
      setStates((s) => ({ ...s, [key]: 'saving' }));
      save(key, text).then(
        () => {
          if (seq.current.get(key) === n) setStates((s) => ({ ...s, [key]: 'saved' }));
        },
        (e: unknown) => {
          if (seq.current.get(key) !== n) return;
          setStates((s) => ({ ...s, [key]: 'error' }));
          setErrorText(
            e instanceof ApiError && e.status < 500 && e.status !== 0
              ? e.message
              : 'Je antwoord is niet opgeslagen: er is geen verbinding met Aandenken. Laat deze pagina open; we proberen het opnieuw zodra je verder typt, of kies ‘Opnieuw opslaan’.',
          );
        },
      );
    },
    [save],
  );

  const flush = useCallback(() => {
    for (const timer of timers.current.values()) window.clearTimeout(timer);
    timers.current.clear();
    for (const [key, text] of pending.current) saveNow(key, text);
  }, [saveNow]);

  const change = (key: string, text: string) => {
    setValues((v) => ({ ...v, [key]: text }));
    pending.current.set(key, text);
    window.clearTimeout(timers.current.get(key));
    timers.current.set(
      key,
      window.setTimeout(() => {
        timers.current.delete(key);
        saveNow(key, text);
      }, AUTOSAVE_DELAY_MS),
    );
  };

  // Leaving with an answer not yet saved: save it now, and let the browser ask.
  useEffect(() => {
    const onLeave = (e: BeforeUnloadEvent) => {
      if (pending.current.size === 0) return;
      flush();
      e.preventDefault();
    };
    window.addEventListener('beforeunload', onLeave);
    return () => {
      window.removeEventListener('beforeunload', onLeave);
      flush();
    };
  }, [flush]);

  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    headingRef.current?.focus();
  }, [step]);

  const goTo = (n: number) => {
    flush();
    setStep(Math.max(0, Math.min(steps - 1, n)));
  };

  const all = Object.values(states);
  const overall: SaveState | null = all.includes('error')
    ? 'error'
    : all.includes('saving')
      ? 'saving'
      : all.includes('saved')
        ? 'saved'
        : null;
  const retry = () => {
    setErrorText(null);
    for (const [key, s] of Object.entries(states)) if (s === 'error') saveNow(key, values[key] ?? '');
  };

  const answered = biographyPeriods.flatMap((p) =>
    p.questions.filter((q) => (values[q.key] ?? '').trim()).map((q) => ({ q, text: values[q.key]!.trim() })),
  );
  const stepTitle = finalStep ? 'Afronden' : biographyPeriods[step]!.title;

  const runGenerate = (replace: boolean) =>
    new Promise<void>((resolve, reject) => {
      flush();
      generate.mutate(replace, {
        onSuccess: () => {
          toast.success('Het eerste levensverhaal staat klaar', 'Pas het aan zoals je wilt en sla het op.');
          void navigate(routes.memorialManage(memorial.id, 'levensverhaal'));
          resolve();
        },
        onError: (e) => {
          toast.error('Het levensverhaal is niet gemaakt', e.message);
          reject(e);
        },
      });
    });

  return (
    <div>
      <nav aria-label="Stappen">
        <ol className="flex flex-wrap gap-2">
          {[...biographyPeriods.map((p) => p.title), 'Afronden'].map((title, i) => (
            <li key={title}>
              <button
                type="button"
                onClick={() => goTo(i)}
                aria-current={i === step ? 'step' : undefined}
                className={cn(
                  'rounded-full border px-3 py-1.5 text-sm font-medium transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring',
                  i === step
                    ? 'border-primary bg-primary text-primary-foreground'
                    : 'border-border bg-card text-foreground hover:bg-secondary',
                )}
              >
                <span className="sr-only">Stap {i + 1}: </span>
                {title}
              </button>
            </li>
          ))}
        </ol>
      </nav>
      <div className="mt-4 h-2 overflow-hidden rounded-full bg-secondary">
        <div
          role="progressbar"
          aria-label="Voortgang"
          aria-valuemin={1}
          aria-valuemax={steps}
          aria-valuenow={step + 1}
          aria-valuetext={`Stap ${step + 1} van ${steps}`}
          className="h-full rounded-full bg-primary"
          style={{ width: `${((step + 1) / steps) * 100}%` }}
        />
      </div>

      <section
        aria-labelledby="stap-titel"
        className="mt-8 rounded-3xl border border-border bg-card p-6 shadow-soft sm:p-8"
      >
        <p className="text-sm text-muted">
          Stap {step + 1} van {steps}
        </p>
        <h2
          id="stap-titel"
          ref={headingRef}
          tabIndex={-1}
          className="mt-1 font-serif text-2xl font-semibold focus:outline-none"
        >
          {stepTitle}
        </h2>

        {!finalStep ? (
          <div className="mt-6 space-y-8">
            {biographyPeriods[step]!.questions.map((q) => {
              const id = `vraag-${q.key}`;
              const value = values[q.key] ?? '';
              return (
                <div key={q.key}>
                  <label htmlFor={id} className="block text-lg font-medium">
                    {q.text}
                  </label>
                  {q.hint && (
                    <p id={`${id}-hint`} className="mt-1 text-sm text-muted">
                      {q.hint}
                    </p>
                  )}
                  <textarea
                    id={id}
                    value={value}
                    maxLength={BIOGRAPHY_ANSWER_MAX_CHARS}
                    aria-describedby={q.hint ? `${id}-hint` : undefined}
                    aria-invalid={states[q.key] === 'error' || undefined}
                    onChange={(e) => change(q.key, e.target.value)}
                    onBlur={flush}
                    rows={5}
                    className={cn(textareaClass, 'mt-3')}
                  />
                </div>
              );
            })}
          </div>
        ) : (
          <Final
            memorial={memorial}
            answered={answered.map((a) => a.text)}
            hasBiography={template.hasBiography}
            busy={generate.isPending}
            onGenerate={runGenerate}
          />
        )}

        <div className="mt-8 flex flex-wrap items-center justify-between gap-4">
          <SaveStatus state={overall} />
          <div className="flex gap-3">
            <Button variant="outline" onClick={() => goTo(step - 1)} disabled={step === 0}>
              <ArrowLeft aria-hidden className="h-4 w-4" />
              Vorige
            </Button>
            {!finalStep && (
              <Button onClick={() => goTo(step + 1)}>
                Volgende
                <ArrowRight aria-hidden className="h-4 w-4" />
              </Button>
            )}
          </div>
        </div>
        {overall === 'error' && errorText && (
          <div
            role="alert"
            className="mt-4 flex flex-col items-start gap-3 rounded-2xl border border-danger/40 p-4"
          >
            <p className="text-danger">{errorText}</p>
            <Button variant="outline" size="sm" onClick={retry}>
              Opnieuw opslaan
            </Button>
          </div>
        )}
      </section>
    </div>
  );
}

function SaveStatus({ state }: { state: SaveState | null }) {
  return (
    <p
      role="status"
      className="inline-flex min-h-6 items-center gap-1.5 text-sm text-muted"
      data-save-state={state ?? 'idle'}
    >
      {state === 'saving' && (
        <>
          <Cloud aria-hidden className="h-4 w-4" />
          Opslaan…
        </>
      )}
      {state === 'saved' && (
        <>
          <Check aria-hidden className="h-4 w-4 text-success" />
          Opgeslagen
        </>
      )}
      {state === 'error' && (
        <>
          <AlertCircle aria-hidden className="h-4 w-4 text-danger" />
          <span className="text-danger">Niet opgeslagen</span>
        </>
      )}
    </p>
  );
}

function Final({
  memorial,
  answered,
  hasBiography,
  busy,
  onGenerate,
}: {
  memorial: Memorial;
  answered: string[];
  hasBiography: boolean;
  busy: boolean;
  onGenerate: (replace: boolean) => Promise<void>;
}) {
  if (answered.length === 0) {
    return (
      <p className="mt-4 leading-relaxed text-muted">
        Je hebt nog geen vragen beantwoord. Ga terug naar een stap en schrijf op wat in je opkomt; één
        antwoord is genoeg om te beginnen.
      </p>
    );
  }
  const button = (
    <Button
      disabled={busy}
      onClick={hasBiography ? undefined : () => void onGenerate(false).catch(() => undefined)}
    >
      {busy ? (
        <Spinner className="[&>span]:h-4 [&>span]:w-4" />
      ) : (
        <Sparkles aria-hidden className="h-4 w-4" />
      )}
      Maak een eerste levensverhaal
    </Button>
  );
  return (
    <div className="mt-4">
      <p className="leading-relaxed text-muted">
        Van je {answered.length === 1 ? 'antwoord' : `${answered.length} antwoorden`} maken we een eerste
        levensverhaal voor {memorial.firstName}, in alinea’s zoals hieronder. Daarna opent de editor, waar je
        het verhaal herschrijft, aanvult en opslaat. Je antwoorden blijven hier bewaard.
      </p>
      <div className="mt-5 max-h-80 space-y-3 overflow-y-auto rounded-2xl bg-background-soft p-5 font-serif leading-relaxed">
        {answered.map((text, i) => (
          <p key={i} className="whitespace-pre-line">
            {text}
          </p>
        ))}
      </div>
      {hasBiography && (
        <p className="mt-5 rounded-2xl border border-border bg-accent-soft p-4 text-sm">
          Er staat al een levensverhaal op de pagina. Dat blijft staan, tenzij je hieronder bevestigt dat je
          het wilt vervangen.
        </p>
      )}
      <p className="mt-5 text-sm leading-relaxed text-muted">
        Liever een concept in lopende tekst?{' '}
        <Link to={routes.memorialBiographyDraft(memorial.id)} className="text-primary underline">
          Laat een concept schrijven met AI
        </Link>{' '}
        (Premium): je kiest zelf welke antwoorden en herinneringen meegaan.
      </p>
      <div className="mt-5">
        {hasBiography ? (
          <ConfirmDialog
            trigger={button}
            title="Bestaand levensverhaal vervangen?"
            description="Het levensverhaal dat nu op de pagina staat, wordt vervangen door de tekst uit je antwoorden. Dit kun je niet ongedaan maken."
            confirmLabel="Ja, vervangen"
            destructive
            onConfirm={() => onGenerate(true)}
          />
        ) : (
          button
        )}
      </div>
    </div>
  );
}
