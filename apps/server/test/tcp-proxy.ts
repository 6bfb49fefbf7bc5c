import net from 'node:net';

/**
 * A TCP proxy in front of the shared PostgreSQL server, to simulate an outage without stopping it:
 * `cut()` resets every open connection and stops listening (new connections are refused), `restore()`
 * listens again on the same port. Used by the outage test and bench/db-outage.mjs.
 */
export interface TcpProxy {
  port: number;
  cut(): Promise<void>;
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }, port = 0): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  let server: net.Server | undefined;
  const listen = (p: number) =>
    new Promise<net.Server>((resolve, reject) => {
      const s = net.createServer((client) => {
        const upstream = net.connect(target.port, target.host);
        sockets.add(client).add(upstream);
        const drop = () => {
          client.destroy();
          upstream.destroy();
          sockets.delete(client);
          sockets.delete(upstream);
        };
        client.on('error', drop).on('close', drop);
        upstream.on('error', drop).on('close', drop);
        client.pipe(upstream).pipe(client);
      });
      s.once('error', reject);
      s.listen(p, '127.0.0.1', () => resolve(s));
    });
  server = await listen(port);
  const bound = (server.address() as net.AddressInfo).port;
  const stop = async () => {
    const s = server;
    server = undefined;
    for (const socket of sockets) socket.resetAndDestroy();
    sockets.clear();
    if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
  };
  return {
    port: bound,
    cut: stop,
    async restore() {
      if (!server) server = await listen(bound);
    },
    close: stop,
  };
}

/** Whether a PostgreSQL server answers at `url` (tests that need one skip without it). */
export async function serverReachable(url: string): Promise<boolean> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}
