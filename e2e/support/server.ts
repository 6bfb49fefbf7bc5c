import { test } from '@playwright/test';
import { serverPorts } from '../playwright.config.ts';

/**
 * The server of the running test's worker (playwright.config.ts: one server per worker): its origin and the
 * ports of its mailbox and chat stand-in. Only inside a test or hook.
 */
export function ownServer() {
  const ports = serverPorts(test.info().parallelIndex);
  return { ...ports, origin: `http://localhost:${ports.port}` };
}
