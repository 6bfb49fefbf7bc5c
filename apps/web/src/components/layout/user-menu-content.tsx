import { DropdownMenu } from 'radix-ui';
import { Link } from 'react-router';
import { Building2, ClipboardCheck, LogOut, UserRound } from 'lucide-react';
import { routes } from '@aandenken/contract';
import { useAccountRoles } from '../../lib/account/roles.ts';
import type { AuthUser } from '../../lib/auth/auth-context.ts';
import { initials } from '../../lib/initials.ts';

/** The Radix menu behind UserMenu (loaded on first intent, see user-menu.tsx). */
export function UserMenuContent({
  user,
  onSignOut,
  defaultOpen = false,
}: {
  user: AuthUser;
  onSignOut: () => void;
  defaultOpen?: boolean;
}) {
  // Loaded with the menu (not the page): the team's and partners' entries.
  const roles = useAccountRoles(true);
  const itemClass =
    'flex cursor-pointer items-center gap-2.5 rounded-lg px-3 py-2 text-sm outline-none select-none data-highlighted:bg-secondary';
  return (
    <DropdownMenu.Root modal={false} defaultOpen={defaultOpen}>
      <DropdownMenu.Trigger
        aria-label={`${initials(user.name)}, account van ${user.name}`}
        className="flex h-10 w-10 cursor-pointer items-center justify-center rounded-full bg-accent-soft text-sm font-semibold text-accent ring-1 ring-border transition hover:ring-accent/60"
      >
        {initials(user.name)}
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={8}
          className="z-50 min-w-56 animate-rise-in rounded-xl border border-border bg-card p-1.5 text-card-foreground shadow-lift"
        >
          <DropdownMenu.Label className="px-3 py-2">
            <span className="block text-sm font-semibold">{user.name}</span>
            <span className="block text-sm text-muted">{user.email}</span>
          </DropdownMenu.Label>
          <DropdownMenu.Separator className="my-1 h-px bg-border" />
          {roles.data?.team && (
            <DropdownMenu.Item asChild className={itemClass}>
              <Link to={routes.teamReview}>
                <ClipboardCheck aria-hidden className="h-4 w-4 text-muted" />
                Partneraanvragen
              </Link>
            </DropdownMenu.Item>
          )}
          {(roles.data?.companies.length ?? 0) > 0 && (
            <DropdownMenu.Item asChild className={itemClass}>
              <Link to={routes.partnerPortal}>
                <Building2 aria-hidden className="h-4 w-4 text-muted" />
                Partner
              </Link>
            </DropdownMenu.Item>
          )}
          <DropdownMenu.Item asChild className={itemClass}>
            <Link to={routes.account}>
              <UserRound aria-hidden className="h-4 w-4 text-muted" />
              Mijn account
            </Link>
          </DropdownMenu.Item>
          <DropdownMenu.Item onSelect={onSignOut} className={itemClass}>
            <LogOut aria-hidden className="h-4 w-4 text-muted" />
            Uitloggen
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
