import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, issueUserToken, type TestContext } from './helpers.ts';
import { auth, createCompany } from './memorial-fixtures.ts';
import { form, jpeg } from './fixtures/content.ts';

let t: TestContext;
let team: string;
beforeAll(async () => {
  t = await createTestApp();
  team = (await issueUserToken(t, { email: 'team@aandenken.test', name: 'Team' })).token;
});
afterAll(async () => t?.close());

const tag = () => crypto.randomUUID().slice(0, 8);

/** An approved company whose applicant signed in with the verified address: its first partner user. */
async function company(name?: string) {
  const c = await createCompany(t, { name });
  return { id: c.id, token: c.admin.token, slug: c.slug };
}

const profile = (over: Record<string, unknown> = {}) => ({
  name: 'Uitvaartzorg De Linde',
  companyType: 'FuneralDirector',
  streetName: 'Lindelaan',
  houseNumber: '12a',
  postalCode: '3511ab',
  city: 'Utrecht',
  phoneNumber: '030 123 4567',
  email: 'info@delinde.nl',
  website: 'https://www.delinde.nl',
  description: 'Persoonlijke uitvaarten in Utrecht en omgeving.',
  prices: [
    { name: 'Basis', amountCents: 395000, description: 'Verzorging en begeleiding' },
    { name: 'Compleet', amountCents: 695000 },
  ],
  workArea: { municipalities: ['Utrecht', 'Zeist'], postcodeRanges: [{ from: 1000, to: 1099 }] },
  ...over,
});

const put = (id: string, token: string | null, body: unknown) =>
  t.app.inject({
    method: 'PUT',
    url: `/core/companies/${id}/profile`,
    headers: auth(token),
    payload: body as object,
  });

describe('the partner portal profile', () => {
  it('saves the profile, tidies it, and writes one audit entry naming the changed fields', async () => {
    const c = await company();
    const res = await put(c.id, c.token, profile());
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      name: 'Uitvaartzorg De Linde',
      postalCode: '3511 AB',
      city: 'Utrecht',
      prices: [
        { name: 'Basis', amountCents: 395000, description: 'Verzorging en begeleiding' },
        { name: 'Compleet', amountCents: 695000, description: null },
      ],
      workArea: { municipalities: ['Utrecht', 'Zeist'], postcodeRanges: [{ from: 1000, to: 1099 }] },
    });
    const again = await put(c.id, c.token, profile());
    expect(again.statusCode).toBe(200);
    const { rows } = await t.db.query<{ action: string; details: { changed: string[] }; actor_kind: string }>(
      `SELECT action, details, actor_kind FROM company_audit_log WHERE company_id = $1 AND action LIKE 'company.profile%'`,
      [c.id],
    );
    // Saving the same profile twice changes nothing the second time.
    expect(rows).toHaveLength(1);
    expect(rows[0]!.actor_kind).toBe('user');
    expect(rows[0]!.details.changed).toEqual(
      expect.arrayContaining(['name', 'city', 'website', 'prices', 'workArea']),
    );
    const read = await t.app.inject({ url: `/core/companies/${c.id}/profile`, headers: auth(c.token) });
    expect(read.statusCode).toBe(200);
    expect(read.json().description).toBe('Persoonlijke uitvaarten in Utrecht en omgeving.');
  });

  it.each([
    ['an unknown municipality', { workArea: { municipalities: ['Atlantis'], postcodeRanges: [] } }],
    [
      'a reversed postcode range',
      { workArea: { municipalities: [], postcodeRanges: [{ from: 2000, to: 1000 }] } },
    ],
    [
      'a postcode of three digits',
      { workArea: { municipalities: [], postcodeRanges: [{ from: 999, to: 1000 }] } },
    ],
    ['an amount in euro with cents', { prices: [{ name: 'Basis', amountCents: 3950.5 }] }],
    ['a negative amount', { prices: [{ name: 'Basis', amountCents: -1 }] }],
    ['a package without a name', { prices: [{ name: ' ', amountCents: 100 }] }],
    ['a website that is not one', { website: 'javascript:alert(1)' }],
    ['an empty name', { name: '' }],
    ['a wrong postcode', { postalCode: '0123 AB' }],
  ])('refuses %s with 400 and a Dutch message', async (_what, over) => {
    const c = await company();
    const res = await put(c.id, c.token, profile(over));
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    const { rows } = await t.db.query(
      `SELECT 1 FROM company_audit_log WHERE company_id = $1 AND action = 'company.profile_updated'`,
      [c.id],
    );
    expect(rows).toHaveLength(0);
  });

  it('lets nobody but the company’s own users of an active company read or change it', async () => {
    const a = await company();
    const b = await company();
    const s = await company();
    const susp = await t.app.inject({
      method: 'POST',
      url: `/core/team/companies/${s.id}/suspend`,
      headers: auth(team),
    });
    expect(susp.statusCode).toBe(200);
    const stranger = (await issueUserToken(t, { email: `iemand-${tag()}@example.nl` })).token;

    expect((await put(a.id, null, profile())).statusCode).toBe(401);
    expect((await put(a.id, stranger, profile())).statusCode).toBe(404);
    expect((await put(a.id, b.token, profile())).statusCode).toBe(404);
    expect((await put(a.id, team, profile())).statusCode).toBe(404);
    expect((await put('geen-id', a.token, profile())).statusCode).toBe(404);
    const suspended = await put(s.id, s.token, profile());
    expect(suspended.statusCode).toBe(403);
    expect(suspended.json()).toMatchObject({
      code: 'COMPANY_SUSPENDED',
      message: expect.stringContaining('geschorst'),
    });

    const get = (id: string, token: string | null) =>
      t.app.inject({ url: `/core/companies/${id}/profile`, headers: auth(token) }).then((r) => r.statusCode);
    expect(await get(a.id, null)).toBe(401);
    expect(await get(a.id, b.token)).toBe(404);
    expect(await get(a.id, team)).toBe(200);
    expect(await get(s.id, s.token)).toBe(403);
  });

  it('takes a logo through the image pipeline, serves it publicly while active, and replaces it', async () => {
    const c = await company();
    const upload = async (data: Buffer, type: string, name: string) => {
      const body = await form({}, { data, type, name });
      return t.app.inject({
        method: 'POST',
        url: `/core/companies/${c.id}/logo`,
        headers: { ...body.headers, ...auth(c.token) },
        payload: body.payload,
      });
    };
    const bad = await upload(Buffer.from('geen plaatje'), 'image/png', 'logo.png');
    expect(bad.statusCode).toBe(415);
    expect(bad.json()).toMatchObject({ code: expect.any(String), message: expect.any(String) });

    const res = await upload(await jpeg(), 'image/jpeg', 'logo.jpg');
    expect(res.statusCode, res.body).toBe(200);
    const logo = res.json().logo as { url: string; srcSet: string };
    expect(logo.url).toMatch(/\/core\/public\/company-logos\/[0-9a-f-]{36}\/w\d+\.webp$/);
    const path = new URL(logo.url).pathname;
    const bytes = await t.app.inject({ url: path });
    expect(bytes.statusCode).toBe(200);
    expect(bytes.headers['content-type']).toBe('image/webp');
    expect(bytes.rawPayload.subarray(8, 12).toString()).toBe('WEBP');

    const second = await upload(await jpeg(), 'image/jpeg', 'logo2.jpg');
    expect(second.statusCode).toBe(200);
    expect((await t.app.inject({ url: path })).statusCode).toBe(404);

    const { rows } = await t.db.query<{ action: string }>(
      `SELECT action FROM company_audit_log WHERE company_id = $1 AND action LIKE 'company.logo%' ORDER BY seq`,
      [c.id],
    );
    expect(rows.map((r) => r.action)).toEqual(['company.logo_changed', 'company.logo_changed']);

    const newPath = new URL(second.json().logo.url as string).pathname;
    await t.app.inject({ method: 'POST', url: `/core/team/companies/${c.id}/suspend`, headers: auth(team) });
    expect((await t.app.inject({ url: newPath })).statusCode).toBe(404);
  });
});

describe('the public company page and the directory', () => {
  it('shows an active company by its slug; a suspended or unknown one is 404', async () => {
    const c = await company();
    expect((await put(c.id, c.token, profile({ name: `Linde ${tag()}` }))).statusCode).toBe(200);
    const page = await t.app.inject({ url: `/core/public/companies/${c.slug}` });
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json()).toMatchObject({ slug: c.slug, city: 'Utrecht', prices: expect.any(Array) });
    expect(page.json()).not.toHaveProperty('id');

    await t.app.inject({ method: 'POST', url: `/core/team/companies/${c.id}/suspend`, headers: auth(team) });
    const gone = await t.app.inject({ url: `/core/public/companies/${c.slug}` });
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    expect((await t.app.inject({ url: '/core/public/companies/bestaat-niet' })).statusCode).toBe(404);
    expect((await t.app.inject({ url: '/core/public/companies/Geen%20Slug' })).statusCode).toBe(404);
  });

  it('finds companies by place name, municipality and postcode', async () => {
    const zeist = await company();
    expect(
      (
        await put(
          zeist.id,
          zeist.token,
          profile({
            name: `Zeister Uitvaart ${tag()}`,
            workArea: {
              municipalities: ['Zeist', 'Súdwest-Fryslân'],
              postcodeRanges: [{ from: 6500, to: 6599 }],
            },
          }),
        )
      ).statusCode,
    ).toBe(200);
    const find = async (q: string) => {
      const res = await t.app.inject({ url: `/core/public/companies?q=${encodeURIComponent(q)}` });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { match: string; municipalities: string[]; items: { slug: string }[] };
    };
    const has = (r: { items: { slug: string }[] }) => r.items.some((i) => i.slug === zeist.slug);

    // A place in the municipality, written loosely.
    const denDolder = await find('den dolder');
    expect(denDolder).toMatchObject({ match: 'place', municipalities: ['Zeist'] });
    expect(has(denDolder)).toBe(true);
    expect(has(await find('Sneek'))).toBe(true);
    expect(has(await find('sudwest-fryslan'))).toBe(true);
    // A postcode in one of its ranges, with or without letters.
    const nijmegen = await find('6521 AB');
    expect(nijmegen.match).toBe('postcode');
    expect(has(nijmegen)).toBe(true);
    // A postcode of a municipality in its work area (Utrecht's are known to the list): not this company.
    expect(has(await find('3512'))).toBe(false);
    expect(has(await find('Amsterdam'))).toBe(false);
    const unknown = await find('Atlantis');
    expect(unknown).toMatchObject({ match: 'unknown', items: [] });

    // The one whose work area is Utrecht is found by a Utrecht postcode.
    const utrecht = await company();
    expect((await put(utrecht.id, utrecht.token, profile({ name: `Domstad ${tag()}` }))).statusCode).toBe(
      200,
    );
    expect((await find('3512 JE')).items.some((i) => i.slug === utrecht.slug)).toBe(true);

    // A change shows at once (the cached answer is dropped): suspended, it is gone from the results.
    await t.app.inject({
      method: 'POST',
      url: `/core/team/companies/${zeist.id}/suspend`,
      headers: auth(team),
    });
    expect(has(await find('Zeist'))).toBe(false);
  });

  it('refuses an overlong query with 400', async () => {
    const res = await t.app.inject({ url: `/core/public/companies?q=${'a'.repeat(101)}` });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: expect.any(String), message: expect.any(String) });
  });
});
