// The floor of the API benchmark: Fastify (the app's framework) answering every request with the same
// precomputed bytes after one indexed one-row query on the same database the app uses (PGlite in this
// process, or the PostgreSQL server through the app's own database client: a `pg` pool of the app's size,
// statements prepared as the app prepares them). What the app does beyond this (the wall's statement with its
// joins and media, building the page, writing it) is the app's own cost; what this costs against the bare
// node:http baseline is the framework's and the database driver's.
// Usage: node --import tsx bench/floor-server.ts PORT BODY_FILE CONTENT_TYPE DATA_DIR [DATABASE_URL]
import fs from 'node:fs';
import path from 'node:path';
import Fastify from 'fastify';
import { createDb } from '../apps/server/src/db/client.ts';

const [port, bodyFile, contentType, dataDir, databaseUrl] = process.argv.slice(2);
const body = fs.readFileSync(bodyFile!);
const db = await createDb({ databaseUrl, pgliteDir: path.join(dataDir!, 'pg') });
const { rows } = await db.query<{ id: string }>('SELECT id FROM memorials ORDER BY id LIMIT 1');
const id = rows[0]!.id;

const app = Fastify({ logger: false });
app.get('/healthz', async () => ({ status: 'ok' }));
const answer = async (_req: unknown, reply: import('fastify').FastifyReply) => {
  await db.query('SELECT id, status, visibility FROM memorials WHERE id = $1', [id]);
  return reply.type(contentType!).send(body);
};
app.get('/*', answer);
app.post('/*', answer);
await app.listen({ port: Number(port), host: '127.0.0.1' });
process.on('SIGTERM', () => {
  void app.close().then(() => db.close().then(() => process.exit(0)));
});
