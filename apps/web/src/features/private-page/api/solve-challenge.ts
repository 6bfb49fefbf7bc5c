import type { AccessCodeChallenge } from '@aandenken/contract';

/** Solves a challenge in a Web Worker from our own bundle; resolves to the encoded solution for `pow`. */
export function solveChallenge(challenge: AccessCodeChallenge): Promise<string> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('../pow-worker.ts', import.meta.url), { type: 'module' });
    worker.onmessage = (event: MessageEvent<string | null>) => {
      worker.terminate();
      if (event.data) resolve(event.data);
      else reject(new Error('Geen oplossing gevonden'));
    };
    worker.onerror = () => {
      worker.terminate();
      reject(new Error('De rekenpuzzel kon niet worden opgelost'));
    };
    worker.postMessage(challenge);
  });
}
