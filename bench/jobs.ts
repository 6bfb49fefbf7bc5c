// The job queue's lanes: how long an export of a small page takes from the request until it is ready,
// alone, and then with 10 video renders (MP4, real ffmpeg) queued by other accounts, one of them rendering.
// Both in the same run, on PGlite, the queue in-process with its default lanes and workers.
// Usage: node bench/jobs.ts --data-dir DIR [--renders 10] [--runs 5]
import os from 'node:os';
import { arg, formData, openApp, photo, report, userToken } from './lib/app.ts';
import { median } from './lib/stats.mjs';

const renders = Number(arg('renders') ?? 10);
const runs = Number(arg('runs') ?? 5);
const b = await openApp({ dataDir: arg('data-dir')! });
const log = (m: string) => process.stderr.write(`jobs: ${m}\n`);

async function page(headers: Record<string, string>, name: string) {
  const res = await b.app.inject({
    method: 'POST',
    url: '/core/memorial/concept',
    headers,
    payload: { firstName: name, lastName: 'Bench' },
  });
  return res.json().id as string;
}

let requests = 0;
/** From the request until the export's state says ready. */
async function exportTime(headers: Record<string, string>, memorialId: string) {
  const url = `/core/memorial/${memorialId}/export`;
  const t0 = performance.now();
  // Each from an address of its own: the route allows 10 requests an hour per address.
  const asked = await b.app.inject({ method: 'POST', url, headers, remoteAddress: `10.0.0.${++requests}` });
  if (asked.statusCode !== 202) throw new Error(`export: ${asked.statusCode} ${asked.body}`);
  for (;;) {
    const state = (await b.app.inject({ method: 'GET', url, headers })).json();
    if (state.status === 'ready') return performance.now() - t0;
    if (state.status === 'failed') throw new Error('export failed');
    if (performance.now() - t0 > 600_000) throw new Error('export not ready in 10 minutes');
    await new Promise((r) => setTimeout(r, 20));
  }
}

const count = async (sql: string) => (await b.db.query<{ n: number }>(sql)).rows[0]!.n;

try {
  const owner = await userToken(b, 'export@bench.aandenken.test', 'Export Eigenaar');
  const small = await page(owner.headers, 'Leeg');

  // The renders' pages: Premium, two photos each, each of another account (as on the live site).
  const videoPages: { id: string; headers: Record<string, string> }[] = [];
  for (let i = 0; i < renders; i++) {
    const u = await userToken(b, `video${i}@bench.aandenken.test`, `Video ${i}`);
    const id = await page(u.headers, `Video${i}`);
    await b.db.query(`UPDATE memorial_plans SET plan = 'premium', paid_until = NULL WHERE memorial_id = $1`, [
      id,
    ]);
    for (let p = 0; p < 2; p++) {
      const body = await formData(
        { memorialId: id },
        { data: await photo(1600, 1200, i * 2 + p), type: 'image/jpeg', name: 'foto.jpg' },
      );
      const up = await b.app.inject({
        method: 'POST',
        url: '/core/memorial-media',
        headers: { ...u.headers, ...body.headers },
        payload: body.payload,
      });
      if (up.statusCode !== 201) throw new Error(`upload: ${up.statusCode} ${up.body}`);
    }
    videoPages.push({ id, headers: u.headers });
  }
  await b.app.deps.queue.idle();

  await exportTime(owner.headers, small); // warm-up: the first export's code paths and statements
  const alone: number[] = [];
  for (let i = 0; i < runs; i++) alone.push(await exportTime(owner.headers, small));
  log(`alone: ${alone.map((x) => x.toFixed(0)).join(', ')} ms`);

  for (const v of videoPages) {
    const res = await b.app.inject({
      method: 'POST',
      url: `/core/memorial/${v.id}/presentation/video`,
      headers: v.headers,
      payload: { resolution: '1080p' },
    });
    if (res.statusCode !== 202) throw new Error(`render: ${res.statusCode} ${res.body}`);
  }
  for (let t0 = Date.now(); ;) {
    if ((await count(`SELECT count(*)::int AS n FROM presentation_videos WHERE status = 'rendering'`)) > 0)
      break;
    if (Date.now() - t0 > 60_000) throw new Error('no render started');
    await new Promise((r) => setTimeout(r, 50));
  }
  const withRenders: number[] = [];
  const queuedAtStart: number[] = [];
  for (let i = 0; i < runs; i++) {
    queuedAtStart.push(
      await count(
        `SELECT count(*)::int AS n FROM jobs WHERE kind = 'presentation.render' AND status IN ('queued', 'running')`,
      ),
    );
    withRenders.push(await exportTime(owner.headers, small));
  }
  const rendersDone = await count(
    `SELECT count(*)::int AS n FROM presentation_videos WHERE status = 'ready'`,
  );
  log(
    `with renders: ${withRenders.map((x) => x.toFixed(0)).join(', ')} ms (renders queued or running at each start: ${queuedAtStart.join(', ')}; finished meanwhile: ${rendersDone})`,
  );
  report({
    renders,
    runs,
    aloneMs: median(alone),
    withRendersMs: median(withRenders),
    alone,
    withRenders,
    rendersQueuedOrRunningAtStart: queuedAtStart,
    rendersFinishedMeanwhile: rendersDone,
    loadAverage: os.loadavg(),
    cpus: os.cpus().length,
  });
} finally {
  await b.close();
}
