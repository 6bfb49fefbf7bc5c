import {
  DUTCH_MONTHS,
  dutchCalendarDay,
  type AiDraftParagraph,
  type AiDraftSource,
} from '@aandenken/contract';
import type { ChatMessage } from './llm.ts';

/**
 * The AI draft's text work (docs/keepsakes.md 'AI-assisted draft'): the prompt, the per-paragraph source
 * tags the model is asked for ([A:question-key], [M:n]), and the source check that flags names and dates
 * the sources do not contain.
 */

export interface DraftSourceAnswer {
  key: string;
  question: string;
  text: string;
}
export interface DraftSourceMemory {
  id: string;
  yearLabel: string;
  body: string;
}
export interface DraftSources {
  /** The person: full name, and birth and death dates as Dutch text ('12 maart 1950'), when known. */
  name: string;
  born: string | null;
  died: string | null;
  answers: DraftSourceAnswer[];
  memories: DraftSourceMemory[];
}

export const DRAFT_SYSTEM_PROMPT = [
  'Je helpt een familie met een eerste versie van een levensverhaal voor een gedenkpagina.',
  'Schrijf in het Nederlands, warm en eenvoudig, in de derde persoon en in de verleden tijd, in alinea’s die je scheidt met een lege regel. Geen titel, geen kopjes, geen opsommingen.',
  'Gebruik UITSLUITEND feiten die in de bronnen staan. Verzin niets: geen namen, plaatsen, data, jaartallen, leeftijden, beroepen of gebeurtenissen die niet in de bronnen staan. Wat je niet weet, laat je weg; een kort verhaal is beter dan een verzonnen verhaal.',
  'Zet aan het eind van elke alinea de codes van de bronnen waaruit die alinea komt, tussen vierkante haken, bijvoorbeeld [A:jeugd-plek] of [A:werk-beroep] [M:2]. Gebruik alleen codes die hieronder staan.',
].join('\n');

/** The chat messages: the rules, then only the sources the family chose. */
export function draftMessages(s: DraftSources): ChatMessage[] {
  const lines = [`Over: ${s.name}`];
  if (s.born) lines.push(`Geboren: ${s.born}`);
  if (s.died) lines.push(`Overleden: ${s.died}`);
  lines.push('', 'Bronnen:');
  for (const a of s.answers) lines.push('', `[A:${a.key}] Vraag: ${a.question}`, `Antwoord: ${a.text}`);
  s.memories.forEach((m, i) => lines.push('', `[M:${i + 1}] Herinnering (${m.yearLabel}):`, m.body));
  return [
    { role: 'system', content: DRAFT_SYSTEM_PROMPT },
    { role: 'user', content: lines.join('\n') },
  ];
}

const TAG = /\[\s*((?:[AM]\s*:\s*[^\]\s,;]+[\s,;]*)+)\]/g;

/** The text without its source tags, for showing while the draft streams in. */
export const stripSourceTags = (text: string) =>
  text
    .replace(TAG, '')
    .replace(/[ \t]+([.,;:!?])/g, '$1')
    .replace(/[ \t]{2,}/g, ' ');

/** '12 maart 1950' from an ISO date ('1950-03-12'), the way the prompt and the sources write it. */
export function dutchDate(iso: string | null | undefined): string | null {
  return iso ? dutchCalendarDay(iso.slice(0, 10)) : null;
}

const norm = (s: string) => s.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();

/** Everything the model was given, as one lowercased text with its words and numbers. */
function vocabulary(s: DraftSources) {
  const text = norm(
    [
      s.name,
      s.born ?? '',
      s.died ?? '',
      ...s.answers.map((a) => a.text),
      ...s.memories.flatMap((m) => [m.yearLabel, m.body]),
    ].join('\n'),
  );
  const words = new Set(text.match(/[\p{L}\p{N}]+/gu) ?? []);
  return { text: ` ${text.replace(/\s+/g, ' ')} `, words };
}

/** Capitalised words that need not be names: sentence openers follow . ! ? : and quotes are handled below. */
const NOT_NAMES = new Set(['ik', 'god', 'here', 'kerst', 'pasen', 'sinterklaas', 'nederland', 'nederlands']);

const DATE_PATTERNS = [
  // 12 maart 1950, 12 maart
  new RegExp(`\\b\\d{1,2}\\s+(?:${DUTCH_MONTHS.join('|')})(?:\\s+\\d{4})?\\b`, 'giu'),
  // 12-03-1950, 12/3/50
  /\b\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4}\b/g,
  // years: 1000–2099, and decades ('jaren 60' is left alone: two digits)
  /\b(?:1\d{3}|20\d{2})\b/g,
];

/**
 * Names and dates in `text` that occur in none of the sources: a capitalised word that does not open a
 * sentence and is not in the sources (case and accents ignored), a date ('12 maart 1950', '12-03-1950')
 * whose parts are not together in the sources, a year that is not in them. Each is listed once.
 */
export function checkAgainstSources(text: string, sources: DraftSources): string[] {
  const vocab = vocabulary(sources);
  const flagged: string[] = [];
  const flag = (w: string) => {
    if (!flagged.includes(w)) flagged.push(w);
  };

  for (const pattern of DATE_PATTERNS) {
    for (const m of text.matchAll(pattern)) {
      const found = m[0];
      const n = norm(found).replace(/\s+/g, ' ');
      if (vocab.text.includes(n)) continue;
      if (/^\d{4}$/.test(found) ? vocab.words.has(found) : false) continue;
      // A full date is known when the sources hold it as day, month and year in the same order.
      const parts = n.split(/[-/. ]+/);
      if (parts.length === 3 && vocab.text.includes(` ${parts.join(' ')} `)) continue;
      flag(found);
    }
  }

  const wordRe = /[\p{L}][\p{L}'’-]*/gu;
  for (const m of text.matchAll(wordRe)) {
    const word = m[0];
    if (!/^\p{Lu}/u.test(word)) continue;
    const before = text.slice(0, m.index).replace(/[\s"'“”‘’«»(\-–—]+$/u, '');
    if (before === '' || /[.!?:…]$/.test(before)) continue; // opens a sentence
    const key = norm(word).replace(/['’]s$/, '');
    if (NOT_NAMES.has(key)) continue;
    const pieces = key.split(/[-'’]/).filter(Boolean);
    if (vocab.words.has(key) || pieces.every((p) => vocab.words.has(p))) continue;
    flag(word);
  }
  return flagged;
}

/**
 * The model's text as paragraphs (split at blank lines), each with the sources its tags name (unknown codes
 * are dropped), the tags stripped, and the words the source check flags.
 */
export function parseDraft(text: string, sources: DraftSources): AiDraftParagraph[] {
  const answerKeys = new Set(sources.answers.map((a) => a.key));
  const paragraphs: AiDraftParagraph[] = [];
  for (const raw of text.split(/\n\s*\n/)) {
    const found: AiDraftSource[] = [];
    const add = (s: AiDraftSource) => {
      if (!found.some((f) => JSON.stringify(f) === JSON.stringify(s))) found.push(s);
    };
    for (const tag of raw.matchAll(TAG)) {
      for (const ref of tag[1]!.split(/[\s,;]+(?=[AM]\s*:)/)) {
        const m = /^([AM])\s*:\s*([^\]\s,;]+)/.exec(ref.trim());
        if (!m) continue;
        if (m[1] === 'A' && answerKeys.has(m[2]!)) add({ kind: 'answer', key: m[2]! });
        if (m[1] === 'M') {
          const memory = sources.memories[Number(m[2]) - 1];
          if (memory && /^\d+$/.test(m[2]!)) add({ kind: 'memory', id: memory.id });
        }
      }
    }
    const clean = stripSourceTags(raw)
      .replace(/^#+\s*/gm, '')
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean)
      .join(' ')
      .trim();
    if (!clean) {
      // Tags on a line of their own after a blank line belong to the paragraph before.
      const prev = paragraphs.at(-1);
      if (prev)
        for (const f of found)
          if (!prev.sources.some((x) => JSON.stringify(x) === JSON.stringify(f))) prev.sources.push(f);
      continue;
    }
    paragraphs.push({ text: clean, sources: found, flagged: checkAgainstSources(clean, sources) });
  }
  return paragraphs;
}
