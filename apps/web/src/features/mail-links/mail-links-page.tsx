import { useEffect, useRef } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router';
import { useMutation } from '@tanstack/react-query';
import { AlertCircle, MailCheck, MailX } from 'lucide-react';
import {
  apiPaths,
  routes,
  subscriptionConfirmedSchema,
  subscriptionKindLabels,
  unsubscribedSchema,
} from '@aandenken/contract';
import { Spinner } from '../../components/ui/spinner.tsx';
import { useApiClient } from '../../lib/api-client.ts';

/**
 * /meldingen/bevestigen and /meldingen/afmelden: the links in mail about one page (docs/funeral-day.md).
 * Opening the link is the one click: the page confirms the sign-up, or switches that kind of mail off, at
 * once, without signing in (the token in the link is the proof).
 */
export default function MailLinksPage() {
  const { pathname } = useLocation();
  const [params] = useSearchParams();
  const token = params.get('t') ?? '';
  const unsubscribing = pathname.startsWith(routes.mailUnsubscribe);
  const client = useApiClient();
  const action = useMutation({
    mutationFn: async () =>
      unsubscribing
        ? {
            action: 'off' as const,
            ...(await client.post(
              `${apiPaths.mailUnsubscribe()}?t=${encodeURIComponent(token)}`,
              {},
              { schema: unsubscribedSchema },
            )),
          }
        : {
            action: 'on' as const,
            ...(await client.post(
              apiPaths.subscriptionConfirm(),
              { token },
              { schema: subscriptionConfirmedSchema },
            )),
          },
  });
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    action.mutate();
  }, [action]);

  const title = unsubscribing ? 'Afmelden' : 'Aanmelding bevestigen';
  return (
    <section className="flex min-h-[calc(100dvh-4rem)] items-center py-16">
      <title>{`${title} · Aandenken`}</title>
      <div className="mx-auto w-full max-w-xl px-5 text-center">
        {action.isError ? (
          <div role="alert">
            <AlertCircle aria-hidden className="mx-auto h-10 w-10 text-danger" />
            <h1 className="mt-4 text-3xl font-semibold">Deze link werkt niet</h1>
            <p className="mt-3 text-muted">{action.error.message}</p>
          </div>
        ) : action.data?.action === 'off' ? (
          <div role="status">
            <MailX aria-hidden className="mx-auto h-10 w-10 text-primary" />
            <h1 className="mt-4 text-3xl font-semibold">Je bent afgemeld</h1>
            <p className="mt-3">
              Je krijgt geen e-mail meer van de gedenkpagina van {action.data.memorialName} voor:{' '}
              <strong>{subscriptionKindLabels[action.data.kind]}</strong>.
            </p>
            <p className="mt-6">
              <Link
                to={routes.memorial(action.data.memorialId)}
                className="font-medium text-primary underline underline-offset-4"
              >
                Naar de gedenkpagina
              </Link>
            </p>
          </div>
        ) : action.data?.action === 'on' ? (
          <div role="status">
            <MailCheck aria-hidden className="mx-auto h-10 w-10 text-primary" />
            <h1 className="mt-4 text-3xl font-semibold">Je aanmelding is bevestigd</h1>
            <p className="mt-3">Je ontvangt van de gedenkpagina van {action.data.memorialName}:</p>
            <ul className="mt-2 inline-block text-left">
              {action.data.kinds.map((k) => (
                <li key={k}>· {subscriptionKindLabels[k]}</li>
              ))}
            </ul>
            <p className="mt-3 text-sm text-muted">
              In elke e-mail staat een link om je met één klik af te melden.
            </p>
            <p className="mt-6">
              <Link
                to={routes.memorial(action.data.memorialId)}
                className="font-medium text-primary underline underline-offset-4"
              >
                Naar de gedenkpagina
              </Link>
            </p>
          </div>
        ) : (
          <>
            <h1 className="text-3xl font-semibold">{title}</h1>
            <Spinner label="Bezig" className="mx-auto mt-6 text-muted" />
          </>
        )}
      </div>
    </section>
  );
}
