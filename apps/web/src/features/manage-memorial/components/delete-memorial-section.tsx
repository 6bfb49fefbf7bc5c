import { useId, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { AlertCircle, Trash2 } from 'lucide-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  DELETED_MEMORIAL_DAYS,
  DELETED_PAGES_ANCHOR,
  MEMORIAL_DELETE_WORD,
  apiPaths,
  memorialDeleteResultSchema,
  routes,
} from '@aandenken/contract';
import { Button } from '../../../components/ui/button.tsx';
import { ApiError, useApiClient } from '../../../lib/api-client.ts';
import { formatDate } from '../../../lib/format.ts';
import { memorialKeys, myMemorialsKey } from '../../../lib/memorials/queries.ts';
import { toast } from '../../../lib/toast.ts';

/** Owners, on the manage tab 'Bewaren': delete the page, restorable for 30 days (docs/privacy.md). */
export function DeleteMemorialSection({ memorialId, name }: { memorialId: string; name: string }) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const headingId = useId();
  const inputId = useId();
  const errorId = useId();
  const [typed, setTyped] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const remove = useMutation({
    mutationFn: () =>
      client.post(
        apiPaths.memorialDelete(memorialId),
        { confirmation: typed.trim() },
        { schema: memorialDeleteResultSchema },
      ),
    onSuccess: (r) => {
      queryClient.removeQueries({ queryKey: memorialKeys.root });
      void queryClient.invalidateQueries({ queryKey: myMemorialsKey });
      void queryClient.invalidateQueries({ queryKey: ['memorials', 'deleted'] });
      toast.success(`De pagina is verwijderd. Je kunt hem terugzetten tot ${formatDate(r.removeAfter)}.`);
      void navigate(`${routes.myPages}#${DELETED_PAGES_ANCHOR}`);
    },
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (typed.trim().toUpperCase() !== MEMORIAL_DELETE_WORD) {
      setFieldError(`Typ ${MEMORIAL_DELETE_WORD} om te bevestigen.`);
      return;
    }
    setFieldError(null);
    remove.mutate();
  };

  const error =
    fieldError ??
    (remove.isError
      ? remove.error instanceof ApiError
        ? remove.error.message
        : 'De pagina kon niet worden verwijderd. Probeer het opnieuw.'
      : null);

  return (
    <section aria-labelledby={headingId} className="mt-10 rounded-3xl border border-danger/40 p-6 sm:p-8">
      <h2 id={headingId} className="text-xl font-semibold sm:text-2xl">
        Pagina verwijderen
      </h2>
      <div className="mt-3 flex max-w-2xl flex-col gap-3 text-sm leading-relaxed text-muted">
        <p>
          De pagina voor {name} is dan meteen weg: bezoekers, gasten en leden zien hem niet meer, en de
          toegangscode werkt niet meer. Alle eigenaren krijgen een mail.
        </p>
        <p>
          {DELETED_MEMORIAL_DAYS} dagen lang kan elke eigenaar de pagina terugzetten, met alles erop, onder
          &lsquo;Verwijderde pagina&apos;s&rsquo; op Mijn Pagina&apos;s. Daarna verwijderen we hem definitief,
          met alle foto&apos;s, video&apos;s, herinneringen en kaarsjes. Wil je iets bewaren, maak dan eerst
          een export hierboven.
        </p>
      </div>
      <form onSubmit={submit} noValidate className="mt-6 flex flex-col gap-2">
        <label htmlFor={inputId} className="font-medium">
          Typ {MEMORIAL_DELETE_WORD} om te bevestigen
        </label>
        <input
          id={inputId}
          name="confirmation"
          type="text"
          autoComplete="off"
          spellCheck={false}
          value={typed}
          onChange={(e) => setTyped(e.target.value)}
          aria-describedby={error ? errorId : undefined}
          aria-invalid={error ? true : undefined}
          className="h-11 max-w-sm rounded-xl border border-input bg-background px-4 text-foreground focus-visible:outline-2 focus-visible:outline-ring"
        />
        {error && (
          <p id={errorId} role="alert" className="flex items-start gap-2 text-sm text-danger">
            <AlertCircle aria-hidden className="mt-0.5 h-4 w-4 shrink-0" />
            {error}
          </p>
        )}
        <Button
          type="submit"
          className="mt-4 self-start bg-danger text-background hover:bg-danger/90"
          disabled={remove.isPending}
          aria-busy={remove.isPending}
        >
          <Trash2 aria-hidden className="h-4 w-4" />
          {remove.isPending ? 'Pagina wordt verwijderd…' : 'Pagina verwijderen'}
        </Button>
      </form>
    </section>
  );
}
