import { useEffect, useState } from 'react';
import { Dialog } from 'radix-ui';
import { Link, NavLink } from 'react-router';
import { Menu, X } from 'lucide-react';
import { routes } from '@aandenken/contract';
import { useAuth } from '../../lib/auth/auth-context.ts';
import { cn } from '../../lib/cn.ts';
import { buttonClass } from '../ui/button.tsx';
import { AuthControls } from './auth-controls.tsx';
import { Logo } from './logo.tsx';
import { navLinks } from './nav-links.ts';

/** The Radix dialog behind MobileMenu (loaded on first intent, see mobile-menu.tsx). */
export function MobileMenuSheet({ initialOpen = false }: { initialOpen?: boolean }) {
  const [open, setOpen] = useState(initialOpen);
  const auth = useAuth();
  // The sheet's own links close it as they navigate; back and forward close it too. Not a change of the router's
  // location as such: a navigation to a page whose code is still loading commits its location only once that
  // code is there, and the sheet opened again in the meantime would close under the finger.
  useEffect(() => {
    if (!open) return;
    const closeOnWide = () => window.matchMedia('(min-width: 768px)').matches && setOpen(false);
    const close = () => setOpen(false);
    window.addEventListener('resize', closeOnWide);
    window.addEventListener('popstate', close);
    return () => {
      window.removeEventListener('resize', closeOnWide);
      window.removeEventListener('popstate', close);
    };
  }, [open]);

  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger className={buttonClass('ghost', 'icon', 'md:hidden')} aria-label="Menu openen">
        <Menu aria-hidden className="h-5 w-5" />
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 animate-fade-in bg-black/50 backdrop-blur-[2px]" />
        <Dialog.Content className="fixed inset-y-0 right-0 z-50 flex w-[min(22rem,88vw)] animate-sheet-in flex-col border-l border-border bg-background p-6 shadow-lift focus:outline-none">
          <div className="flex items-center justify-between">
            <Dialog.Title asChild>
              <Link to={routes.home} onClick={() => setOpen(false)} className="rounded-md">
                <Logo />
              </Link>
            </Dialog.Title>
            <Dialog.Close className={buttonClass('ghost', 'icon')} aria-label="Menu sluiten">
              <X aria-hidden className="h-5 w-5" />
            </Dialog.Close>
          </div>
          <Dialog.Description className="sr-only">Navigatie van Aandenken</Dialog.Description>
          <nav aria-label="Hoofdmenu" className="mt-10">
            <ul className="flex flex-col gap-1">
              {navLinks.map((link) => (
                <li key={link.to}>
                  <NavLink
                    to={link.to}
                    onClick={() => setOpen(false)}
                    className={({ isActive }) =>
                      cn(
                        'block rounded-xl px-4 py-3 font-serif text-lg transition-colors hover:bg-secondary',
                        isActive && 'bg-secondary text-primary',
                      )
                    }
                  >
                    {link.label}
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>
          <div className="mt-auto border-t border-border pt-6">
            {auth.status === 'authenticated' && (
              <Link
                to={routes.account}
                onClick={() => setOpen(false)}
                className={buttonClass('ghost', 'md', 'mb-3 w-full')}
              >
                Mijn account
              </Link>
            )}
            <AuthControls layout="stacked" onNavigate={() => setOpen(false)} />
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
