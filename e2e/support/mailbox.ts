import { expect } from '@playwright/test';
import { mailboxPort } from '../playwright.config.ts';

export interface Mail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
}

/** Mails the real server delivered to the local SMTP sink. */
export async function mails(): Promise<Mail[]> {
  const res = await fetch(`http://127.0.0.1:${mailboxPort}/`);
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
