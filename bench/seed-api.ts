// Seeds the API benchmark's memorial through the real HTTP routes (services, access checks, media
// pipeline and its background jobs): one public memorial, 200 published memories, 50 photos on them.
// Usage: node --import tsx bench/seed-api.ts --data-dir DIR [--database-url URL] [--memories 200] [--photos 50]
import { arg, formData, jobsIdle, openApp, photo, report, userToken } from './lib/app.ts';

const dataDir = arg('data-dir');
if (!dataDir) throw new Error('--data-dir is required');
const memories = Number(arg('memories') ?? 200);
const photos = Number(arg('photos') ?? 50);

const b = await openApp({ dataDir, databaseUrl: arg('database-url') });
const started = Date.now();
let n = 0;
// Route-level rate limits count per address; each seeded request comes from its own.
const from = () => {
  n++;
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
};
const call = async (
  method: 'POST' | 'PUT',
  url: string,
  headers: Record<string, string>,
  payload: unknown,
  status: number,
) => {
  const res = await b.app.inject({ method, url, headers, payload: payload as object, remoteAddress: from() });
  if (res.statusCode !== status)
    throw new Error(`${method} ${url}: ${res.statusCode} ${res.body.slice(0, 300)}`);
  return res.json();
};

const owner = await userToken(b, 'eigenaar@bench.aandenken.test', 'Marieke de Vries');
const { id: memorialId } = await call(
  'POST',
  '/core/memorial/concept',
  owner.headers,
  { firstName: 'Johanna', lastName: 'van den Berg' },
  201,
);
await call(
  'PUT',
  '/core/memorial',
  owner.headers,
  {
    id: memorialId,
    status: 'active',
    visibility: 'public',
    birthDate: '1938-04-12',
    deathDate: '2024-11-03',
    birthPlace: 'Deventer',
    deathPlace: 'Zwolle',
    quote: 'Wat je liefhebt, blijft.',
  },
  200,
);

const sentences = [
  'We fietsten elke zondag langs de IJssel naar het theehuis.',
  'Ze leerde me breien aan de keukentafel, met eindeloos geduld.',
  'Op haar verjaardag zong de hele straat mee.',
  'Haar appeltaart was beroemd in het hele dorp.',
  'Ze wist altijd precies wat je nodig had, nog voor je het zelf wist.',
  'In de zomer zaten we tot laat in de tuin tussen de rozen.',
];
const memoryIds: string[] = [];
for (let i = 0; i < memories; i++) {
  const text = Array.from({ length: 3 + (i % 4) }, (_, k) => sentences[(i + k) % sentences.length]).join(' ');
  const draft = await call(
    'POST',
    '/core/memories/concept',
    owner.headers,
    { memorialId, yearLabel: `${1950 + (i % 70)}`, text },
    201,
  );
  await call('POST', '/core/memories/publish', owner.headers, { id: draft.id }, 200);
  memoryIds.push(draft.id);
}

// Photos on every (memories/photos)-th memory, counted from the newest, so the first wall page carries its share.
const step = Math.max(1, Math.floor(memories / Math.max(1, photos)));
for (let p = 0; p < photos; p++) {
  const memoryId = memoryIds[memoryIds.length - 1 - p * step]!;
  const file = { data: await photo(1024, 768, p + 1), type: 'image/jpeg', name: `foto-${p + 1}.jpg` };
  const { payload, headers } = await formData({ memoryId }, file);
  const res = await b.app.inject({
    method: 'POST',
    url: '/core/memory/medias',
    headers: { ...owner.headers, ...headers },
    payload,
    remoteAddress: from(),
  });
  if (res.statusCode !== 201) throw new Error(`upload: ${res.statusCode} ${res.body.slice(0, 300)}`);
}
await jobsIdle(b.db);

const { rows } = await b.db.query<{ memories: number; photos: number; variants: number }>(
  `SELECT (SELECT count(*)::int FROM memories WHERE memorial_id = $1 AND status = 'published') AS memories,
          (SELECT count(*)::int FROM media WHERE memorial_id = $1 AND status = 'ready') AS photos,
          (SELECT count(*)::int FROM media_variants v JOIN media m ON m.id = v.media_id WHERE m.memorial_id = $1) AS variants`,
  [memorialId],
);
await b.close();
report({ memorialId, ...rows[0], seconds: (Date.now() - started) / 1000 });
