import { Link, useLocation } from 'react-router';
import { routes } from '@aandenken/contract';
import { useAuth } from '../../lib/auth/auth-context.ts';
import { appUrl } from '../../lib/app-url.ts';
import { cn } from '../../lib/cn.ts';
import { buttonClass } from '../ui/button.tsx';
import { UserMenu } from './user-menu.tsx';

/** Signed out: 'Inloggen'. Signed in: "Mijn Pagina's" and the avatar menu. */
export function AuthControls({
  layout = 'inline',
  onNavigate,
}: {
  layout?: 'inline' | 'stacked';
  onNavigate?: () => void;
}) {
  const auth = useAuth();
  const location = useLocation();
  const returnUrl = `${location.pathname}${location.search}`;
  // Signing in from the start page is for one's own pages; anywhere else the person stays where they are.
  const signInReturnUrl = location.pathname === routes.home ? routes.myPages : returnUrl;

  if (auth.status === 'loading') return <span className="h-10 w-20" aria-hidden />;

  if (auth.status === 'authenticated' && auth.user) {
    const myPagesElsewhere = appUrl(routes.myPages);
    const myPagesClass = buttonClass(layout === 'stacked' ? 'secondary' : 'ghost', 'md');
    return (
      <div className={cn('flex items-center gap-2', layout === 'stacked' && 'flex-col items-stretch gap-3')}>
        {myPagesElsewhere ? (
          <a href={myPagesElsewhere} className={myPagesClass}>
            Mijn Pagina's
          </a>
        ) : (
          <Link to={routes.myPages} onClick={onNavigate} className={myPagesClass}>
            Mijn Pagina's
          </Link>
        )}
        {layout === 'inline' ? (
          <UserMenu user={auth.user} onSignOut={() => void auth.signOut({ returnUrl })} />
        ) : (
          <div className="rounded-xl border border-border p-4">
            <p className="text-sm font-semibold">{auth.user.name}</p>
            <p className="text-sm text-muted">{auth.user.email}</p>
            <button
              type="button"
              onClick={() => void auth.signOut({ returnUrl })}
              className={buttonClass('outline', 'sm', 'mt-3 w-full')}
            >
              Uitloggen
            </button>
          </div>
        )}
      </div>
    );
  }

  return (
    <button
      type="button"
      onClick={() => void auth.signIn({ returnUrl: signInReturnUrl })}
      className={buttonClass(
        'primary',
        layout === 'stacked' ? 'lg' : 'sm',
        layout === 'stacked' ? 'w-full' : undefined,
      )}
    >
      Inloggen
    </button>
  );
}
