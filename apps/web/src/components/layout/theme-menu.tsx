import { DropdownMenu } from 'radix-ui';
import { Check, Moon, Sun } from 'lucide-react';
import { setTheme, useTheme, type Theme } from '../../lib/theme.ts';
import { buttonClass } from '../ui/button.tsx';

const options: { value: Theme; label: string; Icon: typeof Sun }[] = [
  { value: 'light', label: 'Licht', Icon: Sun },
  { value: 'dark', label: 'Donker', Icon: Moon },
];

/** The Radix menu behind ThemeToggle (loaded on first intent, see theme-toggle.tsx). */
export function ThemeMenu({ defaultOpen = false }: { defaultOpen?: boolean }) {
  const theme = useTheme();
  return (
    <DropdownMenu.Root modal={false} defaultOpen={defaultOpen}>
      <DropdownMenu.Trigger
        className={buttonClass('ghost', 'icon')}
        aria-label="Thema wisselen"
        title="Thema wisselen"
      >
        {theme === 'dark' ? (
          <Moon aria-hidden className="h-5 w-5" />
        ) : (
          <Sun aria-hidden className="h-5 w-5" />
        )}
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={8}
          className="z-50 min-w-40 animate-rise-in rounded-xl border border-border bg-card p-1.5 text-card-foreground shadow-lift"
        >
          <DropdownMenu.RadioGroup value={theme} onValueChange={(value) => setTheme(value as Theme)}>
            {options.map(({ value, label, Icon }) => (
              <DropdownMenu.RadioItem
                key={value}
                value={value}
                className="flex cursor-pointer items-center gap-2.5 rounded-lg px-3 py-2 text-sm outline-none select-none data-highlighted:bg-secondary"
              >
                <Icon aria-hidden className="h-4 w-4 text-muted" />
                <span className="flex-1">{label}</span>
                <DropdownMenu.ItemIndicator>
                  <Check aria-hidden className="h-4 w-4 text-primary" />
                </DropdownMenu.ItemIndicator>
              </DropdownMenu.RadioItem>
            ))}
          </DropdownMenu.RadioGroup>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
