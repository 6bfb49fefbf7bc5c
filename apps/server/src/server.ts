import fs from 'node:fs/promises';
import path from 'node:path';
import { buildApp, databaseRoutines } from './app.ts';
import { ConfigError, loadConfig, publicUrlNotice, switchedOff } from './config.ts';
import { createDb } from './db/client.ts';
import { migrate } from './db/migrate.ts';
import { embeddedDatabaseExists, prepareEmbeddedDatabase } from './embedded-first-start.ts';
import { BACKUP_SOCKET, startBackupSocket } from './lib/backup/socket.ts';
import { seedExamples } from './modules/examples/seed.ts';

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }

  const pgliteDir = path.join(config.DATA_DIR, 'pg');
  // A first start on PGlite: made (with the examples) in a child process, so what that leaves behind is not kept
  // in this one.
  if (!config.DATABASE_URL && !embeddedDatabaseExists(pgliteDir)) {
    console.log(
      config.SEED_EXAMPLES
        ? 'Eerste start: de database en de voorbeeldpagina’s worden aangemaakt; dat duurt even.'
        : 'Eerste start: de database wordt aangemaakt; dat duurt even.',
    );
    await prepareEmbeddedDatabase(pgliteDir, { seedExamples: config.SEED_EXAMPLES });
  }
  const db = await createDb({ databaseUrl: config.DATABASE_URL, pgliteDir });
  await migrate(db, databaseRoutines);

  const app = await buildApp({ config, db });
  let closing = false;
  let seeding: Promise<void> | undefined;
  let backupSocket: { close(): Promise<void> } | undefined;
  const stopSeeding = new AbortController();
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const timer = setTimeout(() => process.exit(1), 10_000).unref();
    try {
      stopSeeding.abort();
      await seeding;
      await backupSocket?.close();
      await app.close();
      await db.close();
    } finally {
      clearTimeout(timer);
      process.exit(0);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.PORT, host: config.HOST });
  app.log.info(
    {
      url: config.PUBLIC_URL,
      database: db.kind === 'pglite' ? path.join(config.DATA_DIR, 'pg') : 'postgres',
    },
    'Aandenken draait',
  );
  const notice = publicUrlNotice(config);
  if (notice) app.log[notice.level]({ publicUrl: config.PUBLIC_URL, port: config.PORT }, notice.line);
  const off = switchedOff(config);
  if (off.length) app.log.info({ off }, `Uitgeschakeld:\n  - ${off.join('\n  - ')}`);
  // `npm run backup` asks this process for a consistent back-up (docs/decisions/011-backups.md).
  try {
    await fs.mkdir(config.DATA_DIR, { recursive: true });
    backupSocket = await startBackupSocket({
      db,
      storage: app.deps.storage,
      socketPath: path.join(config.DATA_DIR, BACKUP_SOCKET),
      log: app.log,
    });
  } catch (err) {
    app.log.warn({ err }, 'back-up socket not available; npm run backup needs the server stopped');
  }
  if (config.SEED_EXAMPLES) {
    // In the background, so the site answers at once; a failure is logged and the site runs on.
    seeding = seedExamples({ ...app.deps, log: app.log, signal: stopSeeding.signal }).then(
      () => undefined,
      (err: unknown) => app.log.error({ err }, 'example memorials could not be created'),
    );
  }
}

main().catch((err: unknown) => {
  console.error('Aandenken kon niet starten:', err instanceof Error ? err.message : err);
  process.exit(1);
});
