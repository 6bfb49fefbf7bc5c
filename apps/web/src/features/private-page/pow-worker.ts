/// <reference lib="webworker" />
import { solveChallenge } from 'altcha-lib/v1';
import type { AccessCodeChallenge } from '@aandenken/contract';

/**
 * Solves the server's proof-of-work challenge (ALTCHA v1) off the main thread, so the page stays usable.
 * Bundled with the web app: nothing is downloaded from anywhere else.
 */
self.onmessage = async (event: MessageEvent<AccessCodeChallenge>) => {
  const c = event.data;
  const solution = await solveChallenge(c.challenge, c.salt, c.algorithm, c.maxnumber).promise;
  self.postMessage(
    solution
      ? btoa(
          JSON.stringify({
            algorithm: c.algorithm,
            challenge: c.challenge,
            number: solution.number,
            salt: c.salt,
            signature: c.signature,
          }),
        )
      : null,
  );
};
