// Own databases on the PostgreSQL server for a benchmark run, created and dropped again.
import pg from 'pg';

async function admin(adminUrl, sql) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export async function createDatabase(adminUrl, purpose) {
  const name = `aandenken_bench_${purpose}_${process.pid}`;
  await admin(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin(adminUrl, `CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { name, url: url.toString() };
}

export async function dropDatabase(adminUrl, name) {
  await admin(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
}

export async function reachable(adminUrl) {
  try {
    await admin(adminUrl, 'SELECT 1');
    return true;
  } catch {
    return false;
  }
}
