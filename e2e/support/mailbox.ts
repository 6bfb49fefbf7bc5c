import { expect } from '@playwright/test';
import { ownServer } from './server.ts';

export interface Mail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
}

/** Mails the real server (this worker's) delivered to its local SMTP sink. */
export async function mails(): Promise<Mail[]> {
  const res = await fetch(`http://127.0.0.1:${ownServer().mailbox}/`);
  return (await res.json()) as Mail[];
}

/** Waits until a delivered mail matches. */
export async function waitForMail(pred: (m: Mail) => boolean): Promise<Mail> {
  let found: Mail | undefined;
  await expect
    .poll(
      async () => {
        found = (await mails()).find(pred);
        return !!found;
      },
      { timeout: 15_000 },
    )
    .toBe(true);
  return found!;
}
