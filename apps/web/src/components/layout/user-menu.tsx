import { useEffect } from 'react';
import type { AuthUser } from '../../lib/auth/auth-context.ts';
import { deferred, placeholderTriggerProps, useDeferred } from '../../lib/deferred.ts';
import { initials } from '../../lib/initials.ts';
import { whenIdle } from '../../lib/use-in-view.ts';

const userMenu = deferred(() => import('./user-menu-content.tsx'));

const avatarClass =
  'flex h-10 w-10 cursor-pointer items-center justify-center rounded-full bg-accent-soft text-sm font-semibold text-accent ring-1 ring-border transition hover:ring-accent/60';

/**
 * The signed-in person's avatar with name, e-mail and 'Uitloggen'. The menu (Radix) is not part of the first
 * download: it loads on first intent, or at the browser's first idle moment once the avatar is shown, so the
 * placeholder gives way to the real trigger before the person reaches for it (a swap during a press is what
 * the placeholder has to guard against; a signed-in visitor has loaded the identity client already anyway).
 */
export function UserMenu({ user, onSignOut }: { user: AuthUser; onSignOut: () => void }) {
  const menu = useDeferred(userMenu);
  const { prepare } = menu;
  useEffect(() => whenIdle(prepare), [prepare]);
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
