// 2. Scaling of the wall, 4. uploads against sharp alone, 5. start-up time and memory at rest.
import fs from 'node:fs';
import path from 'node:path';
import { memoryOf, root, runStep, sleep, startServer } from '../lib/proc.mjs';
import { createDatabase, dropDatabase } from '../lib/pg.mjs';

export async function scalingSection({ tmp, quick, adminUrl, log }) {
  const sizes = quick ? '100,10000' : '100,10000,100000';
  const reps = quick ? '10' : '30';
  const pglite = await runStep(
    'scaling.ts',
    ['--data-dir', path.join(tmp, 'scaling-pglite'), '--sizes', sizes, '--reps', reps],
    { log },
  );
  const database = await createDatabase(adminUrl, 'scaling');
  try {
    const postgres = await runStep(
      'scaling.ts',
      [
        '--data-dir',
        path.join(tmp, 'scaling-pg'),
        '--database-url',
        database.url,
        '--sizes',
        sizes,
        '--reps',
        reps,
      ],
      { log },
    );
    return { runs: [pglite, postgres] };
  } finally {
    await dropDatabase(adminUrl, database.name);
  }
}

export async function uploadsSection({ tmp, quick, log }) {
  const file = path.join(tmp, 'photo-12mp.jpg');
  const made = await runStep('uploads.ts', ['--mode', 'make', '--file', file], { log });
  const runs = quick ? '1' : '3';
  const floor = await runStep('uploads.ts', ['--mode', 'floor', '--file', file, '--runs', runs], { log });
  const app = await runStep(
    'uploads.ts',
    ['--mode', 'app', '--file', file, '--data-dir', path.join(tmp, 'uploads'), '--runs', runs],
    { log },
  );
  log(
    `uploads: answer ${app.answerMs.toFixed(0)} ms (sharp alone ${floor.answerMs.toFixed(0)} ms), all variants ${app.fullMs.toFixed(0)} ms (sharp alone ${floor.variantsMs.toFixed(0)} ms)`,
  );
  return { image: made, floor, app };
}

/** An export's time from request to ready, alone and with 10 video renders queued (the job queue's lanes). */
export async function jobsSection({ tmp, quick, log }) {
  const result = await runStep(
    'jobs.ts',
    ['--data-dir', path.join(tmp, 'jobs'), '--renders', '10', '--runs', quick ? '1' : '5'],
    { log },
  );
  log(
    `jobs: export alone ${result.aloneMs.toFixed(0)} ms, with ${result.renders} renders queued ${result.withRendersMs.toFixed(0)} ms`,
  );
  return result;
}

/** From spawning the server to a 200 on /healthz: a first start (empty data directory), a restart, and on PostgreSQL. */
export async function startSection({ tmp, adminUrl, webDist, log }) {
  const viaNpmStart = !webDist && fs.existsSync(path.join(root, 'apps/web/dist/index.html'));
  const results = [];
  const measure = async (name, opts) => {
    const server = await startServer({
      ...opts,
      webDist,
      viaNpmStart,
      logFile: path.join(tmp, `start-${name}.log`),
    });
    try {
      // scripts/start.mjs is the server itself (it imports it); the whole tree: section 6 (memory).
      const pid = server.pid;
      await sleep(3000);
      const rest = memoryOf(pid);
      results.push({ name, healthyMs: server.healthyMs, restMb: rest.rssMb });
      log(
        `start: ${name}: healthy after ${server.healthyMs.toFixed(0)} ms, ${rest.rssMb.toFixed(0)} MB at rest`,
      );
    } finally {
      await server.stop();
    }
  };
  const dataDir = path.join(tmp, 'start-data');
  await measure('first start, PGlite (creates and migrates the database)', { dataDir });
  await measure('restart, PGlite', { dataDir });
  const database = await createDatabase(adminUrl, 'start');
  try {
    await measure('first start, PostgreSQL server (migrates)', {
      dataDir: path.join(tmp, 'start-pg'),
      databaseUrl: database.url,
    });
    await measure('restart, PostgreSQL server', {
      dataDir: path.join(tmp, 'start-pg'),
      databaseUrl: database.url,
    });
  } finally {
    await dropDatabase(adminUrl, database.name);
  }
  return { viaNpmStart, results };
}
