// Starts what the end-to-end tests run against: a local SMTP sink with a small mailbox API, and the
// real server (apps/server/src/server.ts, serving the built web app) on a fresh data folder and database.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSmtpSink } from '../../apps/server/test/smtp-sink.ts';
import { startGoogleStandIn } from '../../apps/server/test/identity-google-stand-in.ts';
import { startLlmStandIn } from '../../apps/server/test/support/llm-standin.ts';
import { startMollieStandIn } from '../../apps/server/test/support/mollie-standin.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const port = Number(process.env.E2E_PORT ?? 8090);
const mailPort = Number(process.env.E2E_MAIL_PORT ?? 8091);
const llmPort = Number(process.env.E2E_LLM_PORT ?? port + 2);

const smtp = await startSmtpSink();
http
  .createServer((req, res) => {
    if (req.method === 'DELETE') smtp.messages.length = 0;
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(smtp.messages));
  })
  .listen(mailPort, '127.0.0.1');

// A second, local OpenID Connect provider plays Google, so "Inloggen met Google" runs for real.
const google = await startGoogleStandIn({
  clientId: 'aandenken-e2e',
  clientSecret: 'e2e-google-secret',
  redirectUris: [`http://localhost:${port}/realms/aandenken/broker/google/endpoint`],
});

// A local Mollie plays the payment provider: its checkout page lets a test choose the outcome.
const mollie = await startMollieStandIn();

// A local OpenAI-compatible chat endpoint for the AI biography draft; specs script its replies over HTTP.
const llm = await startLlmStandIn({ port: llmPort, apiKey: 'sk-e2e' });

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aandenken-e2e-'));
let databaseUrl: string | undefined;
let dropDatabase = () => {};
if (process.env.TEST_DATABASE_URL) {
  const name = `e2e_${port}_${Date.now().toString(36)}`;
  const admin = new URL(process.env.TEST_DATABASE_URL);
  const psql = (sql: string) =>
    spawnSync('psql', [admin.toString(), '-q', '-c', sql], { stdio: 'inherit' }).status;
  if (psql(`CREATE DATABASE ${name}`) !== 0) throw new Error('could not create the e2e database');
  const url = new URL(admin);
  url.pathname = `/${name}`;
  databaseUrl = url.toString();
  dropDatabase = () => void psql(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}

const server = spawn(process.execPath, ['src/server.ts'], {
  cwd: path.join(root, 'apps/server'),
  stdio: 'inherit',
  env: {
    ...process.env,
    NODE_ENV: 'test',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: `http://localhost:${port}`,
    DATA_DIR: dataDir,
    SMTP_URL: smtp.url,
    ADMIN_EMAILS: 'team@aandenken.test',
    LOG_LEVEL: 'warn',
    // The whole suite comes from one address; the limits under test (access codes, login) have their own.
    RATE_LIMIT_MAX: process.env.RATE_LIMIT_MAX ?? '5000',
    // Both projects (and retries) guess codes from one address; the 5-a-minute limit stays under test.
    ACCESS_CODE_FAILURES_PER_HOUR: '1000',
    // The global budget low enough for public-private-page.spec.ts to exceed it on purpose (its last test);
    // a light proof of work, so solving it does not slow the suite.
    ACCESS_CODE_GLOBAL_FAILURES_PER_HOUR: '100',
    ACCESS_CODE_POW_MAX_NUMBER: '20000',
    // Lets the rate-limit test use an address of its own through X-Forwarded-For.
    TRUST_PROXY: 'true',
    GOOGLE_CLIENT_ID: 'aandenken-e2e',
    GOOGLE_CLIENT_SECRET: 'e2e-google-secret',
    GOOGLE_ISSUER: google.issuer,
    // Short-lived access tokens, so a test sees silent renewal keep a user signed in past expiry
    // (the client renews 60 s before expiry: with 70 s that is every 10 s).
    OIDC_ACCESS_TOKEN_TTL: '70',
    IDENTITY_RATE_LIMIT_MAX: '1000',
    // No load shedding on event-loop delay: on a shared, busy test machine it would answer 503 at random
    // (load-shedding.test.ts tests it on purpose).
    OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: '0',
    MOLLIE_API_KEY: mollie.apiKey,
    MOLLIE_API_URL: mollie.url,
    LLM_BASE_URL: llm.url,
    LLM_API_KEY: llm.apiKey,
    LLM_MODEL: 'standin-7b',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : { DATABASE_URL: '' }),
  },
});

const stop = () => {
  server.kill('SIGTERM');
  server.once('exit', () => {
    dropDatabase();
    fs.rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  });
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
server.on('exit', (code) => {
  if (code) process.exit(code);
});
