import { Link, NavLink } from 'react-router';
import { routes } from '@aandenken/contract';
import { cn } from '../../lib/cn.ts';
import { AuthControls } from './auth-controls.tsx';
import { Logo } from './logo.tsx';
import { MobileMenu } from './mobile-menu.tsx';
import { navLinks } from './nav-links.ts';
import { ThemeToggle } from './theme-toggle.tsx';

export function Header() {
  return (
    <header className="sticky top-0 z-40 border-b border-border/70 bg-background/85 backdrop-blur-md supports-[backdrop-filter]:bg-background/70">
      <div className="mx-auto flex h-16 w-full max-w-6xl items-center gap-4 px-5 sm:px-8">
        <Link to={routes.home} className="shrink-0 rounded-md" aria-label="Aandenken, naar de startpagina">
          <Logo />
        </Link>
        <nav aria-label="Hoofdmenu" className="ml-6 hidden md:block">
          <ul className="flex items-center gap-1">
            {navLinks.map((link) => (
              <li key={link.to}>
                <NavLink
                  to={link.to}
                  className={({ isActive }) =>
                    cn(
                      'rounded-full px-3.5 py-2 text-[0.95rem] text-muted transition-colors hover:bg-secondary hover:text-foreground',
                      isActive && 'text-foreground',
                    )
                  }
                >
                  {link.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div className="ml-auto flex items-center gap-1.5 sm:gap-2">
          <ThemeToggle />
          <div className="hidden md:block">
            <AuthControls />
          </div>
          <MobileMenu />
        </div>
      </div>
    </header>
  );
}
