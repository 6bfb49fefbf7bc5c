import { SMTPServer } from 'smtp-server';
import PostalMime from 'postal-mime';
import type { AddressInfo } from 'node:net';

export interface ReceivedMail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  /** Header names in lower case. */
  headers: Record<string, string>;
}

/**
 * A real SMTP server on loopback that keeps what it receives, so tests read delivered mail. `stop()` and
 * `restart()` take it down and bring it back on the same port (a mail server that is away for a while).
 */
export async function startSmtpSink() {
  const messages: ReceivedMail[] = [];
  const waiters: Array<() => void> = [];
  const createServer = () =>
    new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          PostalMime.parse(Buffer.concat(chunks))
            .then((parsed) => {
              messages.push({
                from: parsed.from?.address ?? '',
                to: session.envelope.rcptTo.map((r) => r.address),
                subject: parsed.subject ?? '',
                text: parsed.text ?? '',
                html: parsed.html ?? '',
                headers: Object.fromEntries(parsed.headers.map((h) => [h.key.toLowerCase(), h.value])),
              });
              waiters.splice(0).forEach((w) => w());
              callback();
            })
            .catch((err: Error) => callback(err));
        });
      },
    });
  const listen = (server: SMTPServer, port: number) =>
    new Promise<void>((resolve, reject) => {
      server.server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.server.off('error', reject);
        resolve();
      });
    });
  let server: SMTPServer | undefined = createServer();
  await listen(server, 0);
  const port = (server.server.address() as AddressInfo).port;
  const stop = async () => {
    const s = server;
    server = undefined;
    if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
  };
  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    messages,
    /** Waits until a mail matching `pred` has arrived (or fails after `timeoutMs`). */
    async waitFor(pred: (m: ReceivedMail) => boolean, timeoutMs = 5000): Promise<ReceivedMail> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = messages.find(pred);
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no matching mail within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 100);
        });
      }
    },
    /** Stops accepting connections (mail sent now is refused). */
    stop,
    /** Listens again on the same port, keeping what it received before. */
    async restart() {
      if (server) return;
      const s = createServer();
      await listen(s, port);
      server = s;
    },
    close: stop,
  };
}
