import fs from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Transporter } from 'nodemailer';

export interface Mail {
  to: string | string[];
  subject: string;
  text: string;
  html?: string;
  replyTo?: string;
  /** Extra headers, e.g. List-Unsubscribe and List-Unsubscribe-Post (RFC 8058). */
  headers?: Record<string, string>;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
  close(): void;
}

/**
 * SMTP through nodemailer when SMTP_URL is set; otherwise each mail is written as an .eml file
 * to DATA_DIR/outbox and a log line says where, so nothing is silently dropped.
 */
/** nodemailer is loaded with the first mail, not with the server. */
function lazyTransport(options: object) {
  let transport: Promise<Transporter> | undefined;
  return {
    get: () =>
      (transport ??= import('nodemailer').then(({ default: nodemailer }) =>
        nodemailer.createTransport(options),
      )),
    close: () => void transport?.then((t) => t.close()),
  };
}

export function createMailer(opts: {
  smtpUrl?: string;
  from: string;
  outboxDir: string;
  log: FastifyBaseLogger;
}): Mailer {
  if (opts.smtpUrl) {
    // A mail server that hangs holds the outbox's worker (and shutdown) a minute at most: well inside the
    // job queue's stale time, after which another worker would send the same mail again.
    const transport = lazyTransport({
      url: opts.smtpUrl,
      connectionTimeout: 30_000,
      greetingTimeout: 30_000,
      socketTimeout: 60_000,
    });
    return {
      async send(mail) {
        await (await transport.get()).sendMail({ from: opts.from, ...mail });
      },
      close: transport.close,
    };
  }
  const transport = lazyTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(mail) {
      const info = (await (await transport.get()).sendMail({ from: opts.from, ...mail })) as {
        message: Buffer;
      };
      await fs.mkdir(opts.outboxDir, { recursive: true });
      const file = path.join(
        opts.outboxDir,
        `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID()}.eml`,
      );
      await fs.writeFile(file, info.message as Buffer);
      opts.log.info({ file, subject: mail.subject }, 'Geen SMTP_URL ingesteld: e-mail in de outbox gezet');
    },
    close: transport.close,
  };
}
