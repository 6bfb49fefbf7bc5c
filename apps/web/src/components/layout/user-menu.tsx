import type { AuthUser } from '../../lib/auth/auth-context.ts';
import { deferred, placeholderTriggerProps, useDeferred } from '../../lib/deferred.ts';
import { initials } from './initials.ts';

const userMenu = deferred(() => import('./user-menu-content.tsx'));

const avatarClass =
  'flex h-10 w-10 cursor-pointer items-center justify-center rounded-full bg-accent-soft text-sm font-semibold text-accent ring-1 ring-border transition hover:ring-accent/60';

/**
 * The signed-in person's avatar with name, e-mail and 'Uitloggen'. The menu (Radix) loads on first intent,
 * so it is not part of the first download.
 */
export function UserMenu({ user, onSignOut }: { user: AuthUser; onSignOut: () => void }) {
  const menu = useDeferred(userMenu);
  if (menu.module)
    return <menu.module.UserMenuContent user={user} onSignOut={onSignOut} defaultOpen={menu.openRequested} />;
  return (
    <button
      {...placeholderTriggerProps(menu)}
      aria-label={`${initials(user.name)}, account van ${user.name}`}
      aria-haspopup="menu"
      aria-expanded={false}
      className={avatarClass}
    >
      {initials(user.name)}
    </button>
  );
}
