import { describe, expect, it } from 'vitest';
import { normaliseLink } from './components/rich-text-editor.tsx';
import { cardTarget } from './card-page.tsx';
import { actionLabel, detailLine } from './tabs/audit-tab.tsx';
import { detailsFormSchema } from './tabs/details-tab.tsx';
import { assignableRoles } from './components/people/roles.ts';
import { formatAccessCode } from '@aandenken/contract';

describe('biography links', () => {
  it('keeps https and mailto only, and completes a bare address', () => {
    expect(normaliseLink('www.oranjefonds.nl/over')).toBe('https://www.oranjefonds.nl/over');
    expect(normaliseLink('https://example.nl')).toBe('https://example.nl/');
    expect(normaliseLink('oma@example.nl')).toBe('mailto:oma@example.nl');
    expect(normaliseLink('http://example.nl')).toBeNull();
    expect(normaliseLink('javascript:alert(1)')).toBeNull();
    expect(normaliseLink('  ')).toBeNull();
    expect(normaliseLink('localhost')).toBeNull();
  });
});

describe('details form', () => {
  const base = { firstName: 'Anna', lastName: 'Jansen', birthPlace: '', deathPlace: '', quote: '' };
  it('reads empty dates as unknown and empty texts as cleared', () => {
    const parsed = detailsFormSchema.parse({ ...base, birthDate: '', deathDate: '2024-02-02' });
    expect(parsed).toEqual({
      firstName: 'Anna',
      lastName: 'Jansen',
      birthDate: null,
      deathDate: '2024-02-02',
      birthPlace: null,
      deathPlace: null,
      quote: null,
    });
  });
  it('says so when death comes before birth, on the death date', () => {
    const result = detailsFormSchema.safeParse({ ...base, birthDate: '1950-01-01', deathDate: '1940-01-01' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]).toMatchObject({
      path: ['deathDate'],
      message: 'Overlijdensdatum ligt voor de geboortedatum',
    });
  });
  it('keeps the contract’s Dutch messages', () => {
    const result = detailsFormSchema.safeParse({
      ...base,
      firstName: ' ',
      birthDate: '2024-02-30',
      deathDate: '',
    });
    expect(result.error?.issues.map((i) => i.message)).toEqual([
      'Voornaam is verplicht',
      'Geboortedatum bestaat niet',
    ]);
  });
});

describe('access code and card', () => {
  it('groups the code in two fours', () => {
    expect(formatAccessCode('12345678')).toBe('1234 5678');
  });
  it('sends the QR code of a private page to the code form (in the fragment), of a public page to its readable address', () => {
    expect(
      cardTarget('https://aandenken.nl', {
        id: 'abc',
        slug: 'jan-de-vries-1950-2024',
        visibility: 'private',
        accessCode: '12345678',
      }),
    ).toBe('https://aandenken.nl/beslotenpagina?pagina=abc#code=12345678');
    expect(
      cardTarget('https://aandenken.nl', {
        id: 'abc',
        slug: 'jan-de-vries-1950-2024',
        visibility: 'public',
        accessCode: '12345678',
      }),
    ).toBe('https://aandenken.nl/gedenkpagina/jan-de-vries-1950-2024');
  });
});

describe('people', () => {
  it('offers the roles the server allows', () => {
    expect(assignableRoles('owner', 'editor')).toEqual(['owner', 'editor', 'contributor', 'guest']);
    expect(assignableRoles('editor', 'guest')).toEqual(['contributor', 'guest']);
    expect(assignableRoles('editor', 'editor')).toEqual([]);
    expect(assignableRoles('editor', 'owner')).toEqual([]);
  });
});

describe('audit log', () => {
  it('names actions in Dutch, also those of memories and media', () => {
    expect(actionLabel('memorial.published')).toBe('Pagina gepubliceerd');
    expect(actionLabel('memory.approved')).toBe('Herinnering goedgekeurd');
    expect(actionLabel('something.new')).toBe('something.new');
  });
  it('summarises what changed', () => {
    expect(detailLine({ details: { from: 'private', to: 'public' } })).toBe('Besloten → Openbaar');
    expect(detailLine({ details: { name: 'Joost', from: 'guest', to: 'contributor' } })).toBe(
      'Joost · Gast → Bijdrager',
    );
    expect(detailLine({ details: { changes: { quote: {}, birth_date: {} } } })).toBe('citaat, geboortedatum');
    expect(detailLine({ details: {} })).toBeNull();
  });
});
