// Seeds the reliability scripts' memorial (bench/load.mjs, db-outage.mjs, sigterm.mjs, kill9.mjs): one public
// memorial with an owner, one published memory to attach uploads to, and the owner's access token (2 h).
// Usage: node bench/seed-reliability.ts --data-dir DIR [--database-url URL] [--memories 20] [--public-url URL]
import { arg, openApp, report, userToken } from './lib/app.ts';

const dataDir = arg('data-dir');
if (!dataDir) throw new Error('--data-dir is required');
const memories = Number(arg('memories') ?? 20);
const publicUrl = arg('public-url');
const b = await openApp({
  dataDir,
  databaseUrl: arg('database-url'),
  env: publicUrl ? { PUBLIC_URL: publicUrl } : {},
});
const owner = await userToken(b, 'eigenaar@reliability.aandenken.test', 'Marieke de Vries');
const call = async (method: 'POST' | 'PUT', url: string, payload: unknown, status: number) => {
  const res = await b.app.inject({ method, url, headers: owner.headers, payload: payload as object });
  if (res.statusCode !== status)
    throw new Error(`${method} ${url}: ${res.statusCode} ${res.body.slice(0, 300)}`);
  return res.json();
};
const { id: memorialId } = await call(
  'POST',
  '/core/memorial/concept',
  { firstName: 'Johanna', lastName: 'Bakker' },
  201,
);
await call(
  'PUT',
  '/core/memorial',
  {
    id: memorialId,
    status: 'active',
    visibility: 'public',
    birthDate: '1941-02-17',
    deathDate: '2024-10-08',
    birthPlace: 'Kampen',
    deathPlace: 'Zwolle',
    quote: 'Wat je liefhebt, blijft.',
  },
  200,
);
let memoryId = '';
for (let i = 0; i < memories; i++) {
  const draft = await call(
    'POST',
    '/core/memories/concept',
    { memorialId, yearLabel: '1970', text: `Herinnering ${i + 1}: de zomers aan zee.` },
    201,
  );
  await call('POST', '/core/memories/publish', { id: draft.id }, 200);
  memoryId = draft.id;
}
await b.close();
report({ memorialId, memoryId, authorization: owner.headers.authorization });
