import type { MemorialSummary } from '@aandenken/contract';
import { formatDate } from '../format.ts';

type Life = Pick<
  MemorialSummary,
  'firstName' | 'lastName' | 'birthDate' | 'deathDate' | 'birthPlace' | 'deathPlace'
>;

export function fullName(m: Pick<Life, 'firstName' | 'lastName'>): string {
  return `${m.firstName} ${m.lastName}`;
}

const year = (date: string | null) => (date ? date.slice(0, 4) : null);

/** '1941 – 2024', '† 2024', '* 1941', or null when neither date is known. */
export function lifeYears(m: Pick<Life, 'birthDate' | 'deathDate'>): string | null {
  const born = year(m.birthDate);
  const died = year(m.deathDate);
  if (born && died) return `${born} – ${died}`;
  if (died) return `† ${died}`;
  if (born) return `* ${born}`;
  return null;
}

/** Spoken form for screen readers: 'geboren 2 mei 1941 in Lisse, overleden 12 maart 2024 in Haarlem'. */
export function lifeDescription(m: Life): string {
  const parts: string[] = [];
  if (m.birthDate || m.birthPlace) {
    parts.push(
      ['geboren', m.birthDate && formatDate(m.birthDate), m.birthPlace && `in ${m.birthPlace}`]
        .filter(Boolean)
        .join(' '),
    );
  }
  if (m.deathDate || m.deathPlace) {
    parts.push(
      ['overleden', m.deathDate && formatDate(m.deathDate), m.deathPlace && `in ${m.deathPlace}`]
        .filter(Boolean)
        .join(' '),
    );
  }
  return parts.join(', ');
}

/** 'Lisse – Haarlem', 'Haarlem', or null. */
export function lifePlaces(m: Pick<Life, 'birthPlace' | 'deathPlace'>): string | null {
  if (m.birthPlace && m.deathPlace && m.birthPlace !== m.deathPlace)
    return `${m.birthPlace} – ${m.deathPlace}`;
  return m.deathPlace ?? m.birthPlace ?? null;
}

/** The initials shown for a person ('Maarten de Vries' → 'MV'). */
export function initialsOf(name: string): string {
  const words = name
    .trim()
    .split(/\s+/)
    .filter((w) => /^\p{Lu}/u.test(w) || w.length > 3);
  const picked =
    words.length >= 2
      ? [words[0]!, words[words.length - 1]!]
      : words.length === 1
        ? [words[0]!]
        : [name.trim()];
  return (
    picked
      .map((w) => w[0]!.toUpperCase())
      .join('')
      .slice(0, 2) || '?'
  );
}
