// The child of `embedded-first-start.ts`: creates the embedded database in the given directory, migrates it and, when
// asked ('seed'), adds the example memorials with their photos' variants; then closes it.
import { databaseRoutines } from './database-routines.ts';
import { createDb, type Db } from './db/client.ts';
import { migrate } from './db/migrate.ts';

const [dir, task] = process.argv.slice(2);

/**
 * The example memorials as the server would make them after its first start: the whole app without listening
 * (the queue renders the photos' variants), stopped once its queue has nothing left. A failure is logged and
 * left to the server, which makes what is missing on every start.
 */
async function seed(db: Db) {
  const [{ loadConfig }, { buildApp }, { seedExamples }] = await Promise.all([
    import('./config.ts'),
    import('./app.ts'),
    import('./modules/examples/seed.ts'),
  ]);
  const app = await buildApp({ config: loadConfig(), db });
  try {
    await app.ready();
    await seedExamples({ ...app.deps, log: app.log });
    await app.deps.queue.idle();
  } catch (err) {
    app.log.error({ err }, 'example memorials could not be created at first start; the server tries again');
  } finally {
    await app.close();
  }
}

const db = await createDb({ pgliteDir: dir });
try {
  await migrate(db, databaseRoutines);
  if (task === 'seed') await seed(db);
} finally {
  await db.close();
}
process.exit(0);
