import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from './helpers.ts';
import {
  addMember,
  auth,
  createMemorial,
  createUsers,
  guestTokenFor,
  type Users,
} from './memorial-fixtures.ts';

let t: TestContext;
let u: Users;
beforeAll(async () => {
  t = await createTestApp();
  u = await createUsers(t);
});
afterAll(async () => t?.close());

const put = (token: string, payload: object) =>
  t.app.inject({ method: 'PUT', url: '/core/memorial', headers: auth(token), payload });
const get = (id: string, token?: string | null) =>
  t.app.inject({ url: `/core/memorial/${id}`, headers: auth(token) });
const auditActions = async (id: string) =>
  (
    await t.db.query<{ action: string; details: Record<string, unknown> }>(
      'SELECT action, details FROM memorial_audit_log WHERE memorial_id = $1 ORDER BY seq',
      [id],
    )
  ).rows;

describe('GET /core/memorial/{id}', () => {
  it('shows each member their role; the access code only to owners and editors', async () => {
    const m = await createMemorial(t, u.owner);
    await addMember(t, m.id, u.editor, 'editor');
    await addMember(t, m.id, u.contributor, 'contributor');
    await addMember(t, m.id, u.guest, 'guest');
    for (const [user, role, seesCode] of [
      [u.owner, 'owner', true],
      [u.editor, 'editor', true],
      [u.contributor, 'contributor', false],
      [u.guest, 'guest', false],
    ] as const) {
      const res = await get(m.id, user.token);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.role).toBe(role);
      expect(body.accessCode).toBe(seesCode ? m.accessCode : null);
      expect(body.counts).toMatchObject({ members: 4, memories: 0, candles: 0, media: 0 });
    }
    const asGuest = await get(m.id, await guestTokenFor(t, m.id));
    expect(asGuest.json()).toMatchObject({ role: 'guest', accessCode: null, accessCodeVersion: null });
  });

  it('answers 404 for a very long or odd id instead of an error', async () => {
    for (const id of ['x'.repeat(100), '%00', "1' OR '1'='1"]) {
      const res = await get(encodeURIComponent(id), u.owner.token);
      expect([400, 404]).toContain(res.statusCode);
    }
  });
});

describe('PUT /core/memorial', () => {
  it('changes only the fields sent, clears with null, and records the change', async () => {
    const m = await createMemorial(t, u.owner, { status: 'concept' });
    const res = await put(u.owner.token, {
      id: m.id,
      firstName: 'Johanna ',
      birthDate: '1931-04-02',
      deathDate: '2024-01-15',
      birthPlace: 'Zwolle',
      deathPlace: 'Utrecht',
      quote: 'Zij leefde voor haar familie.',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      firstName: 'Johanna',
      lastName: 'Willems',
      birthDate: '1931-04-02',
      deathDate: '2024-01-15',
      birthPlace: 'Zwolle',
      deathPlace: 'Utrecht',
      quote: 'Zij leefde voor haar familie.',
      status: 'concept',
      visibility: 'private',
    });
    const cleared = await put(u.owner.token, { id: m.id, birthPlace: null, quote: '' });
    expect(cleared.json()).toMatchObject({ birthPlace: null, quote: null, deathPlace: 'Utrecht' });
    const actions = await auditActions(m.id);
    expect(actions.map((a) => a.action)).toEqual([
      'memorial.created',
      'memorial.details_updated',
      'memorial.details_updated',
    ]);
    expect(actions[1]!.details).toMatchObject({ changes: { birth_place: { from: null, to: 'Zwolle' } } });

    // Sending the same values again changes nothing and records nothing.
    await put(u.owner.token, { id: m.id, deathPlace: 'Utrecht' });
    expect(await auditActions(m.id)).toHaveLength(3);
  });

  it('refuses bad input with Dutch field messages and changes nothing', async () => {
    const m = await createMemorial(t, u.owner);
    await put(u.owner.token, { id: m.id, birthDate: '1950-01-01' });
    const before = (await get(m.id, u.owner.token)).json();
    const future = new Date(Date.now() + 5 * 86400_000).toISOString().slice(0, 10);
    const cases: [object, string, string][] = [
      [{ deathDate: future }, 'deathDate', 'Overlijdensdatum mag niet in de toekomst liggen'],
      [{ birthDate: '2023-02-30' }, 'birthDate', 'Geboortedatum bestaat niet'],
      [{ birthDate: '02-03-1950' }, 'birthDate', 'Geboortedatum moet de vorm JJJJ-MM-DD hebben'],
      [{ deathDate: '1940-01-01' }, 'deathDate', 'Overlijdensdatum ligt voor de geboortedatum'],
      [
        { birthDate: '2000-01-01', deathDate: '1999-01-01' },
        'deathDate',
        'Overlijdensdatum ligt voor de geboortedatum',
      ],
      [{ quote: 'x'.repeat(281) }, 'quote', 'Citaat mag maximaal 280 tekens zijn'],
      [{ firstName: '  ' }, 'firstName', 'Voornaam is verplicht'],
      [{ status: 'verwijderd' }, 'status', 'Kies een geldige status'],
      [{ visibility: 'iedereen' }, 'visibility', 'Kies zichtbaar of besloten'],
    ];
    for (const [patch, field, message] of cases) {
      const res = await put(u.owner.token, { id: m.id, ...patch });
      expect(res.statusCode, JSON.stringify(patch)).toBe(400);
      expect(res.json().code).toBe('VALIDATION_ERROR');
      expect(res.json().fields[field]).toBe(message);
    }
    const badId = await put(u.owner.token, { id: 'geen-uuid', quote: 'x' });
    expect(badId.statusCode).toBe(400);
    expect(badId.json().fields.id).toBe('Gedenkpagina is ongeldig');
    expect((await get(m.id, u.owner.token)).json()).toEqual(before);
  });

  it('follows the status transitions: publish, archive, reactivate; nothing else', async () => {
    const m = await createMemorial(t, u.owner, { status: 'concept' });
    const toArchived = await put(u.owner.token, { id: m.id, status: 'archived' });
    expect(toArchived.statusCode).toBe(409);
    expect(toArchived.json()).toMatchObject({
      code: 'INVALID_STATUS_TRANSITION',
      message: 'Een pagina met status concept kan niet naar gearchiveerd.',
    });

    const published = await put(u.owner.token, { id: m.id, status: 'active' });
    expect(published.statusCode).toBe(200);
    const first = published.json().publishedAt;
    expect(first).toEqual(expect.any(String));

    expect((await put(u.owner.token, { id: m.id, status: 'concept' })).statusCode).toBe(409);
    expect((await put(u.owner.token, { id: m.id, status: 'archived' })).json().status).toBe('archived');
    const again = await put(u.owner.token, { id: m.id, status: 'active' });
    expect(again.json()).toMatchObject({ status: 'active', publishedAt: first });
    expect((await auditActions(m.id)).map((a) => a.action)).toEqual([
      'memorial.created',
      'memorial.published',
      'memorial.archived',
      'memorial.reactivated',
    ]);
  });

  it('makes a page public for everyone, and an archived page is seen by its members only', async () => {
    const m = await createMemorial(t, u.owner);
    expect((await get(m.id)).statusCode).toBe(404);
    const pub = await put(u.owner.token, { id: m.id, visibility: 'public' });
    expect(pub.json().visibility).toBe('public');
    const anon = await get(m.id);
    expect(anon.statusCode).toBe(200);
    expect(anon.json()).toMatchObject({ role: 'visitor', accessCode: null });
    expect((await get(m.id, u.stranger.token)).json().role).toBe('visitor');

    await put(u.owner.token, { id: m.id, status: 'archived' });
    expect((await get(m.id)).statusCode).toBe(404);
    expect((await get(m.id, u.owner.token)).statusCode).toBe(200);
    expect((await auditActions(m.id)).map((a) => a.action)).toContain('memorial.visibility_changed');
  });

  it('lets editors but not contributors change a page', async () => {
    const m = await createMemorial(t, u.owner);
    await addMember(t, m.id, u.editor, 'editor');
    await addMember(t, m.id, u.contributor, 'contributor');
    expect((await put(u.editor.token, { id: m.id, quote: 'Door de redacteur' })).statusCode).toBe(200);
    const refused = await put(u.contributor.token, { id: m.id, quote: 'Door de bijdrager' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('FORBIDDEN');
    expect((await put(u.stranger.token, { id: m.id, quote: 'x' })).json().code).toBe('MEMORIAL_NOT_FOUND');
    expect((await get(m.id, u.owner.token)).json().quote).toBe('Door de redacteur');
  });
});

describe('POST /core/memorial/query', () => {
  it('finds public, published pages by every word of the name, newest first, paginated', async () => {
    const tag = `Zoek${Date.now().toString(36)}`;
    const a = await createMemorial(t, u.owner, { visibility: 'public', firstName: 'Anna', lastName: tag });
    const b = await createMemorial(t, u.owner, { visibility: 'public', firstName: 'Bert', lastName: tag });
    const c = await createMemorial(t, u.owner, { visibility: 'public', firstName: 'Cor', lastName: tag });
    await createMemorial(t, u.owner, { visibility: 'private', firstName: 'Geheim', lastName: tag });
    await createMemorial(t, u.owner, {
      status: 'concept',
      visibility: 'public',
      firstName: 'Concept',
      lastName: tag,
    });
    await createMemorial(t, u.owner, {
      status: 'archived',
      visibility: 'public',
      firstName: 'Archief',
      lastName: tag,
    });

    const q = (payload: object) => t.app.inject({ method: 'POST', url: '/core/memorial/query', payload });
    const all = await q({ search: tag, limit: 2 });
    expect(all.statusCode).toBe(200);
    expect(all.json().items.map((i: { id: string }) => i.id)).toEqual([c.id, b.id]);
    expect(all.json().items[0]).not.toHaveProperty('accessCode');
    const rest = await q({ search: tag, limit: 2, cursor: all.json().nextCursor });
    expect(rest.json()).toEqual({
      items: [expect.objectContaining({ id: a.id, firstName: 'Anna' })],
      nextCursor: null,
    });

    expect(
      (await q({ search: `bert ${tag.toLowerCase()}` })).json().items.map((i: { id: string }) => i.id),
    ).toEqual([b.id]);
    expect((await q({ search: `${tag} %` })).json().items).toEqual([]);
    expect(
      (await q({ search: '_' }))
        .json()
        .items.every((i: { firstName: string; lastName: string }) =>
          `${i.firstName} ${i.lastName}`.includes('_'),
        ),
    ).toBe(true);

    const bad = await q({ limit: 0 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields.limit).toBe('Aantal moet minstens 1 zijn');
    expect((await q({ search: 'x'.repeat(101) })).json().fields.search).toBe(
      'Zoekterm mag maximaal 100 tekens zijn',
    );
  });
});

describe('biography', () => {
  it('is empty at first and readable by who may see the page', async () => {
    const m = await createMemorial(t, u.owner);
    const res = await t.app.inject({
      url: `/core/memorial/biography/${m.id}`,
      headers: auth(await guestTokenFor(t, m.id)),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ memorialId: m.id, html: '', updatedAt: null, updatedBy: null });
    expect((await t.app.inject({ url: `/core/memorial/biography/${m.id}` })).statusCode).toBe(404);
  });

  it('is sanitised on the server: scripts, event handlers and unsafe links are removed', async () => {
    const m = await createMemorial(t, u.owner);
    const html = [
      '<h1>Titel</h1><h2>Jeugd</h2>',
      '<p onclick="steal()">Geboren in <strong>Zwolle</strong>, <em>jongste</em> van <u>vijf</u>, <s>nooit</s> stil.</p>',
      '<script>alert("x")</script><img src=x onerror="alert(1)">',
      '<p><a href="javascript:alert(1)">klik</a> <a href="https://example.nl/" target="_blank" onmouseover="x()">site</a> <a href="mailto:fam@example.nl">mail</a> <a href="http://onveilig.nl">http</a></p>',
      '<ul><li>een</li></ul><ol><li>twee</li></ol><blockquote>citaat</blockquote><br>',
      '<style>body{display:none}</style><iframe src="https://evil"></iframe><div class="x" style="color:red">div</div>',
    ].join('');
    const res = await t.app.inject({
      method: 'PUT',
      url: '/core/memorial/biography',
      headers: auth(u.owner.token),
      payload: { memorialId: m.id, html },
    });
    expect(res.statusCode).toBe(200);
    const clean: string = res.json().html;
    for (const bad of [
      '<script',
      'alert',
      'onerror',
      'onclick',
      'onmouseover',
      'javascript:',
      '<img',
      '<h1',
      '<style',
      'display:none',
      '<iframe',
      'style=',
      'class=',
      '<div',
      'target=',
      'http://onveilig.nl',
    ]) {
      expect(clean, bad).not.toContain(bad);
    }
    expect(clean).toContain('<h2>Jeugd</h2>');
    expect(clean).toContain(
      '<p>Geboren in <strong>Zwolle</strong>, <em>jongste</em> van <u>vijf</u>, <s>nooit</s> stil.</p>',
    );
    expect(clean).toContain('<a href="https://example.nl/" rel="noopener noreferrer">site</a>');
    expect(clean).toContain('<a href="mailto:fam@example.nl" rel="noopener noreferrer">mail</a>');
    expect(clean).toContain('<ul><li>een</li></ul><ol><li>twee</li></ol><blockquote>citaat</blockquote>');
    expect(clean).toContain('Titel');
    expect(res.json()).toMatchObject({
      updatedAt: expect.any(String),
      updatedBy: expect.stringContaining('Eigenaar'),
    });

    // What is stored is the clean version.
    const { rows } = await t.db.query<{ biography_html: string }>(
      'SELECT biography_html FROM memorials WHERE id = $1',
      [m.id],
    );
    expect(rows[0]!.biography_html).toBe(clean);
    const read = await t.app.inject({
      url: `/core/memorial/biography/${m.id}`,
      headers: auth(u.owner.token),
    });
    expect(read.json().html).toBe(clean);
    const audit = await auditActions(m.id);
    expect(audit.at(-1)).toMatchObject({
      action: 'memorial.biography_updated',
      details: { removedMarkup: true },
    });
  });

  it('refuses too long a text and contributors, storing nothing', async () => {
    const m = await createMemorial(t, u.owner);
    await addMember(t, m.id, u.contributor, 'contributor');
    const long = await t.app.inject({
      method: 'PUT',
      url: '/core/memorial/biography',
      headers: auth(u.owner.token),
      payload: { memorialId: m.id, html: `<p>${'a'.repeat(100_001)}</p>` },
    });
    expect(long.statusCode).toBe(400);
    expect(long.json().fields.html).toBe('Levensverhaal mag maximaal 100000 tekens zijn');
    const afterSanitising = await t.app.inject({
      method: 'PUT',
      url: '/core/memorial/biography',
      headers: auth(u.owner.token),
      payload: { memorialId: m.id, html: `<p>${'a'.repeat(60_000)}</p>` },
    });
    expect(afterSanitising.statusCode).toBe(400);
    expect(afterSanitising.json().fields.html).toBe('Levensverhaal mag maximaal 50000 tekens zijn');
    const contributor = await t.app.inject({
      method: 'PUT',
      url: '/core/memorial/biography',
      headers: auth(u.contributor.token),
      payload: { memorialId: m.id, html: '<p>Hallo</p>' },
    });
    expect(contributor.statusCode).toBe(403);
    const { rows } = await t.db.query('SELECT biography_html FROM memorials WHERE id = $1', [m.id]);
    expect(rows[0]).toEqual({ biography_html: '' });
  });
});

describe('POST /core/memorial/{id}/access-code/regenerate', () => {
  it('makes a new code; the old code and the guest tokens issued with it stop working', async () => {
    const m = await createMemorial(t, u.owner);
    const old = await t.app.inject({
      method: 'POST',
      url: '/core/guest/token',
      payload: { accessCode: m.accessCode },
    });
    expect(old.statusCode).toBe(200);
    const oldToken = old.json().token as string;
    expect((await get(m.id, oldToken)).statusCode).toBe(200);

    const res = await t.app.inject({
      method: 'POST',
      url: `/core/memorial/${m.id}/access-code/regenerate`,
      headers: auth(u.owner.token),
    });
    expect(res.statusCode).toBe(200);
    const { accessCode, accessCodeVersion } = res.json();
    expect(accessCode).toMatch(/^\d{8}$/);
    expect(accessCode).not.toBe(m.accessCode);
    expect(accessCodeVersion).toBe(2);
    expect((await get(m.id, u.owner.token)).json()).toMatchObject({ accessCode, accessCodeVersion: 2 });

    const revoked = await get(m.id, oldToken);
    expect(revoked.statusCode).toBe(401);
    expect(revoked.json().code).toBe('UNAUTHORIZED');
    const oldCode = await t.app.inject({
      method: 'POST',
      url: '/core/guest/token',
      payload: { accessCode: m.accessCode },
      remoteAddress: '10.9.9.9',
    });
    expect(oldCode.statusCode).toBe(404);
    const fresh = await t.app.inject({
      method: 'POST',
      url: '/core/guest/token',
      payload: { accessCode },
      remoteAddress: '10.9.9.9',
    });
    expect(fresh.statusCode).toBe(200);
    expect((await get(m.id, fresh.json().token)).json().role).toBe('guest');

    const audit = await t.db.query<{ details: object }>(
      `SELECT details FROM memorial_audit_log WHERE memorial_id = $1 AND action = 'memorial.access_code_regenerated'`,
      [m.id],
    );
    expect(audit.rows).toEqual([{ details: { version: 2 } }]);
    expect(JSON.stringify(audit.rows)).not.toContain(accessCode);
  });

  it('is refused to contributors and hidden from strangers', async () => {
    const m = await createMemorial(t, u.owner);
    await addMember(t, m.id, u.contributor, 'contributor');
    const url = `/core/memorial/${m.id}/access-code/regenerate`;
    expect((await t.app.inject({ method: 'POST', url, headers: auth(u.contributor.token) })).statusCode).toBe(
      403,
    );
    expect((await t.app.inject({ method: 'POST', url, headers: auth(u.stranger.token) })).statusCode).toBe(
      404,
    );
    expect((await get(m.id, u.owner.token)).json().accessCodeVersion).toBe(1);
  });
});

describe('GET /core/memorial/{memorialId}/audit', () => {
  it('shows owners who changed what, newest first, paginated, without secrets', async () => {
    const m = await createMemorial(t, u.owner, { status: 'concept' });
    await addMember(t, m.id, u.editor, 'editor');
    await put(u.editor.token, { id: m.id, quote: 'Een' });
    await put(u.owner.token, { id: m.id, status: 'active' });
    await t.app.inject({
      method: 'POST',
      url: `/core/memorial/${m.id}/access-code/regenerate`,
      headers: auth(u.owner.token),
    });
    const url = `/core/memorial/${m.id}/audit`;
    const p1 = await t.app.inject({ url: `${url}?limit=2`, headers: auth(u.owner.token) });
    expect(p1.statusCode).toBe(200);
    expect(p1.json().items.map((i: { action: string }) => i.action)).toEqual([
      'memorial.access_code_regenerated',
      'memorial.published',
    ]);
    expect(p1.json().items[0].actor).toEqual({
      kind: 'user',
      userId: u.owner.userId,
      name: expect.stringContaining('Eigenaar'),
    });
    const p2 = await t.app.inject({
      url: `${url}?limit=2&cursor=${p1.json().nextCursor}`,
      headers: auth(u.owner.token),
    });
    expect(p2.json().items.map((i: { action: string }) => i.action)).toEqual([
      'memorial.details_updated',
      'memorial.created',
    ]);
    expect(p2.json().items[0].actor.userId).toBe(u.editor.userId);
    expect(p2.json().nextCursor).toBeNull();
    const code = (await get(m.id, u.owner.token)).json().accessCode;
    expect(p1.body + p2.body).not.toContain(code);

    expect((await t.app.inject({ url, headers: auth(u.editor.token) })).statusCode).toBe(403);
    expect((await t.app.inject({ url: `${url}?limit=500`, headers: auth(u.owner.token) })).statusCode).toBe(
      400,
    );
    expect((await t.app.inject({ url: `${url}?cursor=abc`, headers: auth(u.owner.token) })).statusCode).toBe(
      400,
    );
  });
});
