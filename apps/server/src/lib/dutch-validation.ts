import { config, util, type $ZodRawIssue } from 'zod/v4/core';
import nl from 'zod/v4/locales/nl.js';

/**
 * Dutch messages for every zod schema in this process (the API's answers must be Dutch). Set through
 * zod's core, which `zod` and `zod/mini` share, so the contract's schemas get them whichever flavour
 * they are written in. Messages a schema sets itself (the contract's own) still win.
 */
export function useDutchValidationMessages() {
  config({ localeError: dutchIssueMessage });
}

const nlError = nl().localeError;
/** zod's own Dutch message, for the issues this file does not word itself. */
const fallback = (issue: $ZodRawIssue): string => {
  const m = nlError(issue);
  return (typeof m === 'string' ? m : m?.message) ?? 'Ongeldige waarde.';
};

const typeNames: Record<string, string> = {
  string: 'tekst',
  number: 'een getal',
  int: 'een geheel getal',
  bigint: 'een geheel getal',
  boolean: 'ja of nee (true of false)',
  object: 'een object',
  array: 'een lijst',
  date: 'een datum',
  null: 'null',
  undefined: 'niets',
  nan: 'geen getal',
};
const typeName = (t: string) => typeNames[t] ?? t;

const formats: Record<string, string> = {
  uuid: 'Dit is geen geldige id (UUID).',
  guid: 'Dit is geen geldige id (UUID).',
  email: 'Vul een geldig e-mailadres in.',
  url: 'Vul een geldige URL in.',
  date: 'Vul een datum in als JJJJ-MM-DD.',
  datetime: 'Vul een datum en tijd in (ISO 8601).',
  time: 'Vul een tijd in als UU:MM.',
  regex: 'Deze waarde heeft niet de juiste vorm.',
};

export function dutchIssueMessage(issue: $ZodRawIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'Dit veld is verplicht.';
      return `Ongeldige waarde: verwacht ${typeName(issue.expected)}, ontvangen ${typeName(util.parsedType(issue.input))}.`;
    case 'too_small': {
      const min = Number(issue.minimum);
      const n = issue.inclusive ? min : min + 1;
      if (issue.origin === 'string')
        return n <= 1 ? 'Dit veld mag niet leeg zijn.' : `Gebruik minstens ${n} tekens.`;
      if (issue.origin === 'array' || issue.origin === 'set')
        return n <= 1 ? 'Kies er minstens één.' : `Kies er minstens ${n}.`;
      return issue.inclusive ? `Moet minstens ${min} zijn.` : `Moet groter zijn dan ${min}.`;
    }
    case 'too_big': {
      const max = Number(issue.maximum);
      const n = issue.inclusive ? max : max - 1;
      if (issue.origin === 'string') return `Gebruik hoogstens ${n} tekens.`;
      if (issue.origin === 'array' || issue.origin === 'set') return `Hoogstens ${n} tegelijk.`;
      if (issue.origin === 'file') return `Het bestand is te groot (hoogstens ${n} bytes).`;
      return issue.inclusive ? `Mag hoogstens ${max} zijn.` : `Moet kleiner zijn dan ${max}.`;
    }
    case 'invalid_format':
      return formats[issue.format] ?? fallback(issue);
    case 'invalid_value':
      return issue.values.length === 1
        ? `Ongeldige waarde: verwacht ${util.stringifyPrimitive(issue.values[0])}.`
        : `Kies een van: ${issue.values.map((v) => util.stringifyPrimitive(v)).join(', ')}.`;
    case 'unrecognized_keys':
      return `Onbekend veld: ${issue.keys.join(', ')}.`;
    case 'invalid_union':
      return 'Ongeldige waarde.';
    default:
      return fallback(issue);
  }
}
