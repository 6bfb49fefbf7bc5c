import pg from 'pg';

/** One statement on the PostgreSQL server's own database at `url` (creating and dropping test databases). */
export async function adminQuery(url: string, sql: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
