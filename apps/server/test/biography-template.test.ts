/**
 * The guided biography template (every plan; docs/keepsakes.md): owners and editors answer questions
 * per period of life, saved one answer at a time; the answers become a first biography, never replacing an
 * existing one without `replace: true`; the generation is in the audit log.
 */
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeBiography } from '../src/modules/keepsakes/service.ts';
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
let memorialId: string;
beforeAll(async () => {
  t = await createTestApp();
  u = await createUsers(t);
  memorialId = (await createMemorial(t, u.owner, { visibility: 'public' })).id;
  await addMember(t, memorialId, u.editor, 'editor');
  await addMember(t, memorialId, u.contributor, 'contributor');
});
afterAll(async () => t?.close());

const call = (method: InjectOptions['method'], url: string, token: string | null, payload?: object) =>
  t.app.inject({ method, url, headers: auth(token), ...(payload ? { payload } : {}) });
const templateUrl = (id: string) => `/core/memorial/${id}/biography-template`;
const answerUrl = (id: string, key: string) => `/core/memorial/${id}/biography-template/${key}`;
const generateUrl = (id: string) => `/core/memorial/${id}/biography-template/generate`;

describe('who may use the template', () => {
  it('answers 401 to anonymous callers and refuses visitors and contributors', async () => {
    for (const [method, url] of [
      ['GET', templateUrl(memorialId)],
      ['PUT', answerUrl(memorialId, 'jeugd-plek')],
      ['POST', generateUrl(memorialId)],
    ] as const) {
      const payload = method === 'PUT' ? { text: 'x' } : method === 'POST' ? {} : undefined;
      const anon = await call(method, url, null, payload);
      expect(anon.statusCode, `${method} ${url}`).toBe(401);
      expect(anon.json()).toMatchObject({ code: expect.any(String), message: expect.any(String) });
      // A stranger sees the public page, but may not manage it.
      expect((await call(method, url, u.stranger.token, payload)).statusCode).toBe(403);
      expect((await call(method, url, u.contributor.token, payload)).statusCode).toBe(403);
    }
  });

  it('hides a private page from strangers (404) and refuses its guests (403)', async () => {
    const priv = await createMemorial(t, u.otherOwner);
    expect((await call('GET', templateUrl(priv.id), u.stranger.token)).statusCode).toBe(404);
    expect((await call('GET', templateUrl(priv.id), await guestTokenFor(t, priv.id))).statusCode).toBe(403);
    expect((await call('GET', templateUrl(priv.id), u.otherOwner.token)).statusCode).toBe(200);
    expect((await call('GET', templateUrl('nope'), u.owner.token)).statusCode).toBe(404);
  });
});

describe('saving answers', () => {
  it('validates: unknown question 404, too long or not text 400, in Dutch', async () => {
    const unknown = await call('PUT', answerUrl(memorialId, 'bestaat-niet'), u.owner.token, { text: 'x' });
    expect(unknown.statusCode).toBe(404);
    const long = await call('PUT', answerUrl(memorialId, 'jeugd-plek'), u.owner.token, {
      text: 'a'.repeat(4001),
    });
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toMatch(/maximaal 4000 tekens/);
    const notText = await call('PUT', answerUrl(memorialId, 'jeugd-plek'), u.owner.token, { text: 12 });
    expect(notText.statusCode).toBe(400);
    const none = await call('PUT', answerUrl(memorialId, 'jeugd-plek'), u.owner.token, {});
    expect(none.statusCode).toBe(400);
  });

  it('keeps each answer, the last save winning, with who saved it', async () => {
    const first = await call('PUT', answerUrl(memorialId, 'jeugd-plek'), u.owner.token, {
      text: 'In Zwolle',
    });
    expect(first.statusCode).toBe(200);
    const second = await call('PUT', answerUrl(memorialId, 'jeugd-plek'), u.editor.token, {
      text: 'In Zwolle, als oudste van vijf.',
    });
    expect(second.json()).toMatchObject({
      questionKey: 'jeugd-plek',
      text: 'In Zwolle, als oudste van vijf.',
    });
    const got = await call('GET', templateUrl(memorialId), u.owner.token);
    expect(got.statusCode).toBe(200);
    expect(got.json()).toMatchObject({
      memorialId,
      hasBiography: false,
      answers: [
        { questionKey: 'jeugd-plek', text: 'In Zwolle, als oudste van vijf.', updatedBy: expect.any(String) },
      ],
    });
  });
});

describe('making a first biography', () => {
  it('refuses without answers', async () => {
    const m = await createMemorial(t, u.owner);
    const res = await call('POST', generateUrl(m.id), u.owner.token, {});
    expect(res.statusCode).toBe(400);
  });

  it('writes plain paragraphs from the answers in the order of the periods, escaped, and records it', async () => {
    const m = await createMemorial(t, u.owner);
    await call('PUT', answerUrl(m.id, 'laatst-blijft'), u.owner.token, { text: 'Zijn lach.' });
    await call('PUT', answerUrl(m.id, 'jeugd-plek'), u.owner.token, {
      text: 'Op de boerderij <b>bij</b> Kampen.\n\nMet vijf broers.',
    });
    await call('PUT', answerUrl(m.id, 'werk-beroep'), u.owner.token, { text: '   ' });
    const res = await call('POST', generateUrl(m.id), u.owner.token, {});
    expect(res.statusCode).toBe(200);
    expect(res.json().html).toBe(
      '<p>Op de boerderij &lt;b&gt;bij&lt;/b&gt; Kampen.</p>\n<p>Met vijf broers.</p>\n<p>Zijn lach.</p>',
    );
    const bio = await call('GET', `/core/memorial/biography/${m.id}`, u.owner.token);
    expect(bio.json().html).toBe(res.json().html);
    const { rows } = await t.db.query<{ details: Record<string, unknown> }>(
      `SELECT details FROM memorial_audit_log WHERE memorial_id = $1 AND action = 'memorial.biography_generated'`,
      [m.id],
    );
    expect(rows).toEqual([{ details: { answers: 2, replaced: false } }]);
    // The usual entry for a changed biography is there too, by the same person.
    const updated = await t.db.query<{ actor_user_id: string }>(
      `SELECT actor_user_id FROM memorial_audit_log WHERE memorial_id = $1 AND action = 'memorial.biography_updated'`,
      [m.id],
    );
    expect(updated.rows).toEqual([{ actor_user_id: u.owner.userId }]);
    expect((await call('GET', templateUrl(m.id), u.owner.token)).json().hasBiography).toBe(true);
  });

  it('never replaces an existing biography without replace: true', async () => {
    const m = await createMemorial(t, u.owner);
    await addMember(t, m.id, u.editor, 'editor');
    await call('PUT', '/core/memorial/biography', u.owner.token, {
      memorialId: m.id,
      html: '<p>Ons eigen verhaal.</p>',
    });
    await call('PUT', answerUrl(m.id, 'bezig-hobby'), u.editor.token, { text: 'Vissen.' });
    const refused = await call('POST', generateUrl(m.id), u.editor.token, {});
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toMatch(/al een levensverhaal/);
    expect((await call('GET', `/core/memorial/biography/${m.id}`, u.owner.token)).json().html).toBe(
      '<p>Ons eigen verhaal.</p>',
    );
    const replaced = await call('POST', generateUrl(m.id), u.editor.token, { replace: true });
    expect(replaced.statusCode).toBe(200);
    expect(replaced.json().html).toBe('<p>Vissen.</p>');
    const { rows } = await t.db.query<{ details: Record<string, unknown> }>(
      `SELECT details FROM memorial_audit_log WHERE memorial_id = $1 AND action = 'memorial.biography_generated'`,
      [m.id],
    );
    expect(rows).toEqual([{ details: { answers: 1, replaced: true } }]);
  });

  it('composes line breaks inside a paragraph', () => {
    expect(composeBiography(new Map([['jeugd-plek', 'Regel een\nRegel twee']]))).toBe(
      '<p>Regel een<br />Regel twee</p>',
    );
  });
});
