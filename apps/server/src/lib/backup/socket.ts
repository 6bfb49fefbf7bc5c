import fs from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import type { MediaStorage } from '../media/storage.ts';
import { writeBackup } from './archive.ts';

/** The control socket's name in DATA_DIR: `npm run backup` asks the running process through it. */
export const BACKUP_SOCKET = 'backup.sock';

/** Whether a process answers on the socket (a file left by a process that was killed does not). */
export function socketAnswers(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(socketPath);
    s.once('connect', () => {
      s.end();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

/**
 * A Unix socket in DATA_DIR (mode 0600) on which the running process writes a back-up: `GET /backup`
 * answers with the archive (docs/decisions/011-backups.md). Embedded PGlite can be opened by one process
 * only, so a back-up of a running site must come from that process; the socket is reachable only by whoever
 * may read DATA_DIR anyway, and never from the network.
 */
export async function startBackupSocket(o: {
  db: Db;
  storage: MediaStorage;
  socketPath: string;
  log: FastifyBaseLogger;
}): Promise<{ close(): Promise<void> }> {
  const noop = { close: async () => {} };
  if (Buffer.byteLength(o.socketPath) > 100) {
    o.log.warn(
      { socketPath: o.socketPath },
      'DATA_DIR path too long for the back-up socket; npm run backup needs the server stopped',
    );
    return noop;
  }
  if (await socketAnswers(o.socketPath)) {
    o.log.warn({ socketPath: o.socketPath }, 'another process serves back-ups for this DATA_DIR');
    return noop;
  }
  await fs.rm(o.socketPath, { force: true });
  let busy = false;
  const server = http.createServer((req, res) => {
    if (req.method !== 'GET' || req.url !== '/backup') {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Onbekend verzoek.\n');
      return;
    }
    if (busy) {
      res
        .writeHead(409, { 'content-type': 'text/plain; charset=utf-8' })
        .end('Er wordt al een back-up gemaakt.\n');
      return;
    }
    busy = true;
    const started = Date.now();
    res.writeHead(200, { 'content-type': 'application/gzip' });
    writeBackup({ db: o.db, storage: o.storage, out: res })
      .then((m) => o.log.info({ entries: m.entries.length, ms: Date.now() - started }, 'back-up written'))
      .catch((err: unknown) => {
        o.log.error({ err }, 'back-up failed');
        res.destroy(err as Error);
      })
      .finally(() => {
        busy = false;
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.socketPath, () => resolve());
  });
  await fs.chmod(o.socketPath, 0o600);
  return {
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await fs.rm(o.socketPath, { force: true });
    },
  };
}
