import { createHmac, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/client.ts';
import { mediaUrlSigner } from '../src/lib/media/url-signer.ts';
import { signedLinks } from '../src/lib/signed-links.ts';
import { invoiceLinkSigner } from '../src/modules/payments/invoices.ts';
import { createTestDb } from './helpers.ts';

/**
 * The one `exp`/`sig` link signer behind media, export, invoice, printed-book and presentation links
 * (their suites test the links end to end); here its rules, and that links signed before it came keep working.
 */
let db: Db;
beforeAll(async () => {
  db = await createTestDb();
});
afterAll(async () => db?.close());

const params = (query: string) => {
  const q = new URLSearchParams(query);
  return { exp: q.get('exp') ?? undefined, sig: q.get('sig') ?? undefined };
};
const keyOf = async (name: string) => {
  const { rows } = await db.query<{ value: string }>('SELECT value FROM server_secrets WHERE name = $1', [
    name,
  ]);
  return Buffer.from(rows[0]!.value, 'base64');
};

describe('signedLinks', () => {
  const id = randomUUID();
  const now = Date.UTC(2026, 10, 24, 12, 0, 0);

  it('accepts its own link until it expires, then calls it expired', async () => {
    const links = signedLinks(db, 'test-link-key', 'test');
    const { exp, sig } = params(await links.sign(id, new Date(now + 60_000)));
    expect(exp).toBe(String(now / 1000 + 60));
    expect(await links.check(id, exp, sig, { now })).toBe('valid');
    expect(await links.check(id, exp, sig, { now: now + 59_999 })).toBe('valid');
    expect(await links.check(id, exp, sig, { now: now + 60_000 })).toBe('expired');
    expect(await links.check(id, exp, sig, { now: now + 86_400_000 })).toBe('expired');
  });

  it('refuses an altered, malformed or missing signature, another id and another scope', async () => {
    const links = signedLinks(db, 'test-link-key', 'test');
    const { exp, sig } = params(await links.sign(id, now + 60_000));
    const flipped = `${sig!.slice(0, -1)}${sig!.endsWith('A') ? 'B' : 'A'}`;
    expect(await links.check(id, exp, flipped, { now })).toBe('invalid');
    expect(await links.check(id, String(Number(exp) + 1), sig, { now })).toBe('invalid');
    expect(await links.check(randomUUID(), exp, sig, { now })).toBe('invalid');
    expect(await links.check(id, exp, 'A', { now })).toBe('invalid');
    expect(await links.check(id, '1e9', sig, { now })).toBe('invalid');
    expect(await links.check(id, undefined, sig, { now })).toBe('invalid');
    expect(await links.check(id, exp, undefined, { now })).toBe('invalid');
    // Same key, other scope (the presentation's music and video share one): never interchangeable.
    const other = signedLinks(db, 'test-link-key', 'test:other');
    expect(await other.check(id, exp, sig, { now })).toBe('invalid');
    // Other key, same scope.
    expect(await signedLinks(db, 'test-link-key-2', 'test').check(id, exp, sig, { now })).toBe('invalid');
  });

  it('refuses an expiry further away than the longest it hands out', async () => {
    const links = signedLinks(db, 'test-link-key', 'test');
    const { exp, sig } = params(await links.sign(id, now + 3_600_000));
    expect(await links.check(id, exp, sig, { now, maxAgeS: 3600 })).toBe('valid');
    expect(await links.check(id, exp, sig, { now, maxAgeS: 3599 })).toBe('invalid');
  });

  it('signs many links alike with signFn', async () => {
    const links = signedLinks(db, 'test-link-key', 'test');
    const signFn = await links.signFn();
    const exp = now / 1000 + 30;
    expect(signFn(id, exp)).toBe(await links.sign(id, exp * 1000));
  });

  it('keeps the messages of before, so links already mailed still open', async () => {
    const exp = Math.floor(Date.now() / 1000) + 600;
    // Invoices: `invoice:<id>:<exp>` with invoice-url-key.
    const invoices = invoiceLinkSigner(db);
    await invoices.sign(id, new Date());
    const invoiceSig = createHmac('sha256', await keyOf('invoice-url-key'))
      .update(`invoice:${id}:${exp}`)
      .digest('base64url');
    expect(await invoices.check(id, String(exp), invoiceSig)).toBe('valid');
    // Media: `media:<id>:<variant>:<exp>` with media-url-key.
    const media = mediaUrlSigner({ db, apiUrl: 'https://api.example' });
    await media.urls();
    const mediaSig = createHmac('sha256', await keyOf('media-url-key'))
      .update(`media:${id}:w320.webp:${exp}`)
      .digest('base64url');
    expect(await media.check(id, 'w320.webp', String(exp), mediaSig)).toBe('valid');
    expect(await media.check(id, 'w640.webp', String(exp), mediaSig)).toBe('invalid');
  });
});
