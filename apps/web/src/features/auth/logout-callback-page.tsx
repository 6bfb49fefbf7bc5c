import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { useAuth } from '../../lib/auth/auth-context.ts';
import { toast } from '../../lib/toast.ts';
import { PageSpinner } from '../../components/ui/spinner.tsx';

/** /auth/logout-callback: finishes the sign-out; the same toast on failure, then the return URL or /. */
export default function LogoutCallbackPage() {
  const auth = useAuth();
  const navigate = useNavigate();
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const complete = auth.completeSignOut ?? (() => Promise.resolve('/'));
    complete()
      .catch(() => '/')
      .then((returnUrl) => {
        toast.success('Uitgelogd', 'Je bent uitgelogd');
        void navigate(returnUrl, { replace: true });
      });
  }, [auth, navigate]);

  return (
    <>
      <title>Uitloggen · Aandenken</title>
      <p className="sr-only" role="status">
        Bezig met uitloggen...
      </p>
      <PageSpinner />
    </>
  );
}
