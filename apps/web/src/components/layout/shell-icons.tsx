import type { SVGProps } from 'react';

/**
 * The few icons the shell (header, footer) shows on every page, drawn without lucide-react's
 * runtime so the entry bundle does not carry it (docs/performance.md). Shapes from Lucide (ISC licence), with
 * its attributes; screens loaded later keep using lucide-react.
 */
function shellIcon(name: string, paths: string[], circle?: [number, number, number]) {
  function ShellIcon({ className, ...props }: SVGProps<SVGSVGElement>) {
    return (
      <svg
        xmlns="http://www.w3.org/2000/svg"
        width={24}
        height={24}
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth={2}
        strokeLinecap="round"
        strokeLinejoin="round"
        className={`lucide lucide-${name}${className ? ` ${className}` : ''}`}
        {...props}
      >
        {circle && <circle cx={circle[0]} cy={circle[1]} r={circle[2]} />}
        {paths.map((d) => (
          <path key={d} d={d} />
        ))}
      </svg>
    );
  }
  return ShellIcon;
}

export const ArrowUp = shellIcon('arrow-up', ['m5 12 7-7 7 7', 'M12 19V5']);
export const Menu = shellIcon('menu', ['M4 5h16', 'M4 12h16', 'M4 19h16']);
export const Moon = shellIcon('moon', [
  'M20.985 12.486a9 9 0 1 1-9.473-9.472c.405-.022.617.46.402.803a6 6 0 0 0 8.268 8.268c.344-.215.825-.004.803.401',
]);
export const Sun = shellIcon(
  'sun',
  [
    'M12 2v2',
    'M12 20v2',
    'm4.93 4.93 1.41 1.41',
    'm17.66 17.66 1.41 1.41',
    'M2 12h2',
    'M20 12h2',
    'm6.34 17.66-1.41 1.41',
    'm19.07 4.93-1.41 1.41',
  ],
  [12, 12, 4],
);
