import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { useAuth } from '../../lib/auth/auth-context.ts';
import { toast } from '../../lib/toast.ts';
import { PageSpinner } from '../../components/ui/spinner.tsx';

/** /auth/callback: finishes the sign-in and goes to the stored return URL. */
export default function AuthCallbackPage() {
  const auth = useAuth();
  const navigate = useNavigate();
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const complete = auth.completeSignIn ?? (() => Promise.reject(new Error('no identity client')));
    complete()
      .then((returnUrl) => {
        toast.success('Ingelogd', 'Je bent ingelogd');
        void navigate(returnUrl, { replace: true });
      })
      .catch((err: unknown) => {
        console.error('Inloggen mislukt', err);
        toast.error('Inloggen mislukt', 'Er is een fout opgetreden bij het inloggen');
        void navigate('/', { replace: true });
      });
  }, [auth, navigate]);

  return (
    <>
      <title>Inloggen · Aandenken</title>
      <p className="sr-only" role="status">
        Bezig met inloggen...
      </p>
      <PageSpinner />
    </>
  );
}
