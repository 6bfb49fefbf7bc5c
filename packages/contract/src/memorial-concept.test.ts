import { describe, expect, it } from 'vitest';
import { deceasedNamesSchema, protectEmailSchema } from './index.ts';

function messages(schema: typeof deceasedNamesSchema | typeof protectEmailSchema, input: unknown) {
  const result = schema.safeParse(input);
  if (result.success) return {};
  const byField: Record<string, string[]> = {};
  for (const issue of result.error.issues) (byField[issue.path.join('.')] ??= []).push(issue.message);
  return byField;
}

describe('deceasedNamesSchema', () => {
  it('accepts two names and trims them', () => {
    expect(deceasedNamesSchema.parse({ firstName: ' Johanna ', lastName: 'de Boer ' })).toEqual({
      firstName: 'Johanna',
      lastName: 'de Boer',
    });
  });

  it('says which name is missing, also when it is only spaces or absent', () => {
    expect(messages(deceasedNamesSchema, { firstName: '', lastName: 'de Boer' })).toEqual({
      firstName: ['Voornaam is verplicht'],
    });
    expect(messages(deceasedNamesSchema, { firstName: 'Johanna', lastName: '   ' })).toEqual({
      lastName: ['Achternaam is verplicht'],
    });
    expect(messages(deceasedNamesSchema, {})).toEqual({
      firstName: ['Voornaam is verplicht'],
      lastName: ['Achternaam is verplicht'],
    });
  });
});

describe('protect-page email schema', () => {
  it('accepts an e-mail address', () => {
    expect(protectEmailSchema.safeParse({ email: 'maria@example.nl' }).success).toBe(true);
  });

  it('asks for an address when empty and a valid one otherwise', () => {
    // The form shows the first message of a field.
    expect(messages(protectEmailSchema, { email: '' }).email?.[0]).toBe('Email is verplicht');
    for (const email of ['maria', 'maria@example', 'maria @example.nl']) {
      expect(messages(protectEmailSchema, { email })).toEqual({ email: ['Voer een geldig emailadres in'] });
    }
  });
});
