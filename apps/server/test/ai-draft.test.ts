/**
 * The AI-assisted biography draft (Premium; docs/keepsakes.md 'AI-assisted draft'),
 * against a local stand-in that speaks the chat-completions protocol: only the chosen sources are sent,
 * the draft streams back as NDJSON with per-paragraph sources, invented names and dates are flagged,
 * failures of the endpoint become a Dutch error event, Basis and a server without settings are refused,
 * and nothing is replaced.
 */
import type { AiDraftEvent } from '@aandenken/contract';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aiDraftService } from '../src/modules/keepsakes/ai-draft.ts';
import {
  checkAgainstSources,
  parseDraft,
  type DraftSources,
} from '../src/modules/keepsakes/ai-draft-text.ts';
import { createTestApp, type TestContext } from './helpers.ts';
import { addMember, auth, createMemorial, createUsers, type Users } from './memorial-fixtures.ts';
import { startLlmStandIn, type LlmStandIn } from './support/llm-standin.ts';

let t: TestContext;
let llm: LlmStandIn;
let u: Users;
let memorialId: string;
const memoryIds: string[] = [];

beforeAll(async () => {
  llm = await startLlmStandIn();
  t = await createTestApp({ LLM_BASE_URL: llm.url, LLM_API_KEY: llm.apiKey, LLM_MODEL: 'standin-7b' });
  u = await createUsers(t);
  memorialId = (await createMemorial(t, u.owner, { firstName: 'Gerrit', lastName: 'Bakker' })).id;
  await addMember(t, memorialId, u.editor, 'editor');
  await addMember(t, memorialId, u.contributor, 'contributor');
  await t.db.query(`UPDATE memorials SET birth_date = '1931-04-02', birth_place = 'Kampen' WHERE id = $1`, [
    memorialId,
  ]);
  await t.db.query(
    `INSERT INTO biography_answers (memorial_id, question_key, text) VALUES
       ($1, 'jeugd-plek', 'Hij groeide op aan de IJssel, in een bakkersgezin met vier kinderen.'),
       ($1, 'werk-beroep', 'Hij nam in 1958 de bakkerij van zijn vader over.')`,
    [memorialId],
  );
  for (const body of [
    'Op zondag bakte hij krentenbollen voor de hele straat.',
    'Geheim: hij zong in het koor.',
  ]) {
    const { rows } = await t.db.query<{ id: string }>(
      `INSERT INTO memories (memorial_id, year_label, body, status, published_at, author_kind, author_user_id)
       VALUES ($1, '1970', $2, 'published', now(), 'user', $3) RETURNING id`,
      [memorialId, body, u.contributor.userId],
    );
    memoryIds.push(rows[0]!.id);
  }
});
afterAll(async () => {
  await t?.close();
  await llm?.close();
});

const url = (id: string) => `/core/memorial/${id}/biography-draft`;
const draft = (token: string | null, payload: object, id = memorialId) =>
  t.app.inject({ method: 'POST', url: url(id), headers: auth(token), payload });
const events = (body: string) =>
  body
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as AiDraftEvent);
const chosen = () => ({ answerKeys: ['jeugd-plek', 'werk-beroep'], memoryIds: [memoryIds[0]!] });
const biography = async () =>
  (await t.db.query<{ h: string }>('SELECT biography_html AS h FROM memorials WHERE id = $1', [memorialId]))
    .rows[0]!.h;

describe('the source check', () => {
  const sources: DraftSources = {
    name: 'Gerrit Bakker',
    born: '2 april 1931 in Kampen',
    died: null,
    answers: [{ key: 'werk-beroep', question: 'Welk werk?', text: 'Hij nam in 1958 de bakkerij over.' }],
    memories: [{ id: 'm-1', yearLabel: '1970', body: 'Hij zong in het koor in Zwolle.' }],
  };

  it('flags names and dates that are in none of the sources, and keeps those that are', () => {
    expect(
      checkAgainstSources(
        'In 1958 nam Gerrit de bakkerij over. Hij zong in Zwolle en trouwde in 1962 met Marie, op 3 mei 1962.',
        sources,
      ),
    ).toEqual(['3 mei 1962', '1962', 'Marie']);
    expect(checkAgainstSources('Gerrit werd op 2 april 1931 geboren in Kampen.', sources)).toEqual([]);
  });

  it('turns the source tags into per-paragraph sources and strips them, ignoring unknown codes', () => {
    const paragraphs = parseDraft(
      'Gerrit nam in 1958 de bakkerij over. [A:werk-beroep]\n\nHij zong in het koor. [M:1] [A:bestaat-niet] [M:7]',
      sources,
    );
    expect(paragraphs).toEqual([
      {
        text: 'Gerrit nam in 1958 de bakkerij over.',
        sources: [{ kind: 'answer', key: 'werk-beroep' }],
        flagged: [],
      },
      { text: 'Hij zong in het koor.', sources: [{ kind: 'memory', id: 'm-1' }], flagged: [] },
    ]);
    // Tags on a line of their own count for the paragraph above them.
    expect(parseDraft('Hij zong in het koor.\n\n[M:1]', sources)).toEqual([
      { text: 'Hij zong in het koor.', sources: [{ kind: 'memory', id: 'm-1' }], flagged: [] },
    ]);
  });
});

describe('who may ask for a draft', () => {
  it('answers 401 to anonymous callers and 403 to contributors; editors see where the text goes', async () => {
    expect((await draft(null, chosen())).statusCode).toBe(401);
    expect((await draft(u.contributor.token, chosen())).statusCode).toBe(403);
    const info = await t.app.inject({ url: url(memorialId), headers: auth(u.editor.token) });
    expect(info.statusCode).toBe(200);
    expect(info.json()).toMatchObject({
      enabled: true,
      planAllows: true,
      endpointHost: new URL(llm.url).host,
      model: 'standin-7b',
      hasBiography: false,
    });
    expect(info.json().answers.map((a: { questionKey: string }) => a.questionKey)).toEqual([
      'jeugd-plek',
      'werk-beroep',
    ]);
    expect(info.json().memories).toHaveLength(2);
  });

  it('refuses a Basis page with a Dutch 403 and sends nothing', async () => {
    const basis = (await createMemorial(t, u.owner)).id;
    await t.db.query(
      `UPDATE memorial_plans SET plan = 'basis', paid_until = now() + interval '1 year' WHERE memorial_id = $1`,
      [basis],
    );
    await t.db.query(
      `INSERT INTO biography_answers (memorial_id, question_key, text) VALUES ($1, 'jeugd-plek', 'In Urk.')`,
      [basis],
    );
    const before = llm.requests.length;
    const res = await draft(u.owner.token, { answerKeys: ['jeugd-plek'], memoryIds: [] }, basis);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'PLAN_FEATURE', message: expect.stringMatching(/Premium/) });
    const info = await t.app.inject({ url: url(basis), headers: auth(u.owner.token) });
    expect(info.json()).toMatchObject({ planAllows: false });
    expect(llm.requests.length).toBe(before);
  });

  it('says the feature is off without LLM settings (409), and refuses an empty or unknown choice (400)', async () => {
    const off = aiDraftService({ db: t.db, config: { ...t.config, aiDraftEnabled: false } });
    const caller = { kind: 'user' as const, userId: u.owner.userId, email: u.owner.email, name: null };
    expect(await off.info(caller, memorialId)).toMatchObject({ enabled: false, endpointHost: null });
    await expect(off.prepare(caller, memorialId, chosen())).rejects.toMatchObject({
      statusCode: 409,
      code: 'AI_DRAFT_DISABLED',
      message: expect.stringMatching(/staat op deze server uit/),
    });
    const none = await draft(u.owner.token, { answerKeys: [], memoryIds: [] });
    expect(none.statusCode).toBe(400);
    expect(none.json().message).toMatch(/Kies minstens één/);
    const unknown = await draft(u.owner.token, { answerKeys: [], memoryIds: [crypto.randomUUID()] });
    expect(unknown.statusCode).toBe(400);
    const empty = await draft(u.owner.token, { answerKeys: ['laatst-blijft'], memoryIds: [] });
    expect(empty.statusCode).toBe(400);
  });
});

describe('the draft', () => {
  it('sends only the chosen sources and streams a draft with per-paragraph sources, replacing nothing', async () => {
    const before = llm.requests.length;
    const res = await draft(u.editor.token, chosen());
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/application\/x-ndjson/);
    const ev = events(res.body);
    expect(ev[0]).toEqual({ type: 'start', endpointHost: new URL(llm.url).host, model: 'standin-7b' });
    expect(ev.filter((e) => e.type === 'delta').length).toBeGreaterThan(3);
    const done = ev.at(-1)!;
    expect(done.type).toBe('done');
    if (done.type !== 'done') return;
    expect(done.paragraphs.map((p) => p.sources)).toEqual([
      [{ kind: 'answer', key: 'jeugd-plek' }],
      [{ kind: 'answer', key: 'werk-beroep' }],
      [{ kind: 'memory', id: memoryIds[0] }],
    ]);
    expect(done.paragraphs.flatMap((p) => p.flagged)).toEqual([]);
    expect(done.paragraphs.map((p) => p.text).join(' ')).not.toMatch(/\[[AM]:/);

    // The request: streaming, the key, the model, the rules, and only what was chosen.
    expect(llm.requests.length).toBe(before + 1);
    const sent = llm.requests.at(-1)!;
    expect(sent.authorization).toBe(`Bearer ${llm.apiKey}`);
    expect(sent.body).toMatchObject({ model: 'standin-7b', stream: true });
    const all = sent.body.messages!.map((m) => m.content).join('\n');
    expect(all).toMatch(/UITSLUITEND feiten/);
    expect(all).toContain('krentenbollen');
    expect(all).toContain('2 april 1931 in Kampen');
    expect(all).not.toContain('Geheim');
    expect(all).not.toContain(u.contributor.email);

    expect(await biography()).toBe('');
    const audit = await t.db.query(
      `SELECT details FROM memorial_audit_log WHERE memorial_id = $1 AND action = 'memorial.ai_draft_requested'`,
      [memorialId],
    );
    expect(audit.rows.at(-1)).toMatchObject({ details: { answers: 2, memories: 1 } });
  });

  it('flags a date and a name the model invented', async () => {
    llm.script({
      text: 'Gerrit nam in 1958 de bakkerij over. [A:werk-beroep]\n\nOp 14 juni 1962 trouwde hij met Marie. [A:jeugd-plek]',
    });
    const ev = events((await draft(u.owner.token, chosen())).body);
    const done = ev.at(-1)!;
    expect(done.type).toBe('done');
    if (done.type !== 'done') return;
    expect(done.paragraphs[0]!.flagged).toEqual([]);
    expect(done.paragraphs[1]!.flagged).toEqual(['14 juni 1962', '1962', 'Marie']);
  });

  it('reports an endpoint that fails, refuses the key or drops the connection, in Dutch', async () => {
    llm.script(
      { status: 500 },
      { status: 401 },
      { text: 'Gerrit groeide op aan de IJssel, in een bakkersgezin.', dropAfter: 3 },
    );
    const messages: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await draft(u.owner.token, chosen());
      expect(res.statusCode).toBe(200);
      const last = events(res.body).at(-1)!;
      expect(last.type).toBe('error');
      if (last.type === 'error') {
        expect(last.code).toBe('AI_PROVIDER_ERROR');
        messages.push(last.message);
      }
    }
    expect(messages[0]).toMatch(/gaf een fout \(HTTP 500\)/);
    expect(messages[1]).toMatch(/sleutel wordt niet geaccepteerd/);
    expect(messages[2]).toMatch(/viel weg/);
    for (const m of messages) expect(m).toMatch(/niets veranderd/);
    expect(await biography()).toBe('');
  });

  it('gives up on an endpoint that stops answering', async () => {
    const slow = aiDraftService({ db: t.db, config: { ...t.config, LLM_TIMEOUT_MS: 300 } });
    const caller = { kind: 'user' as const, userId: u.owner.userId, email: u.owner.email, name: null };
    llm.script({ text: 'Gerrit groeide op aan de IJssel.', stallAfter: 2 });
    const out: AiDraftEvent[] = [];
    for await (const e of slow.run(
      await slow.prepare(caller, memorialId, chosen()),
      new AbortController().signal,
    ))
      out.push(e);
    expect(out.at(-1)).toMatchObject({ type: 'error', message: expect.stringMatching(/niet op tijd/) });
  });

  it('sends the text while it is being written (over HTTP, before the endpoint has finished)', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    llm.script({
      text: 'Gerrit groeide op aan de IJssel, in een bakkersgezin met vier kinderen.',
      stallAfter: 4,
    });
    const res = await fetch(`http://127.0.0.1:${port}${url(memorialId)}`, {
      method: 'POST',
      headers: { ...auth(u.owner.token), 'content-type': 'application/json', 'accept-encoding': 'gzip' },
      body: JSON.stringify(chosen()),
    });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    // The stand-in has sent four pieces and waits: they arrive anyway.
    while ((text.match(/"delta"/g) ?? []).length < 4) {
      const part = await reader.read();
      expect(part.done).toBe(false);
      text += decoder.decode(part.value, { stream: true });
    }
    expect(text).toContain('"type":"start"');
    await reader.cancel();
  });
});
