import net from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import { clientErrorAnswer } from './error-handler.ts';

const tooSlow = () =>
  Object.assign(new Error('request body too slow'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' as const });

/**
 * Deadlines for a request's body once its headers are in, on top of Node's limit for the whole request
 * (REQUEST_TIMEOUT_MS, long enough for a large upload): a body that is not an upload (JSON, a form) must
 * arrive within BODY_TIMEOUT_MS; an upload must keep bringing UPLOAD_MIN_BYTES_PER_SECOND, measured per
 * window of UPLOAD_RATE_WINDOW_MS (the first is its grace). Too slow: 408 `{ code, message }`, and the
 * connection closes, as when Node's own timeout fires.
 */
export function registerBodyDeadlines(
  app: FastifyInstance,
  config: Pick<Config, 'BODY_TIMEOUT_MS' | 'UPLOAD_MIN_BYTES_PER_SECOND' | 'UPLOAD_RATE_WINDOW_MS'>,
) {
  app.addHook('onRequest', (req, reply, done) => {
    const raw = req.raw;
    const socket = raw.socket;
    const length = raw.headers['content-length'];
    const hasBody =
      (length !== undefined && length !== '0') || raw.headers['transfer-encoding'] !== undefined;
    // Only real connections (app.inject's have no socket to cut).
    if (!hasBody || raw.complete || !(socket instanceof net.Socket)) return done();

    const cut = (why: string) => {
      stop();
      if (raw.complete || socket.destroyed) return;
      req.log.info({ why }, 'request body too slow: connection closed');
      // Nothing of the answer went out yet: the 408 is the whole answer. Else the connection just closes.
      if (reply.raw.headersSent) socket.destroy();
      else clientErrorAnswer(tooSlow(), socket);
    };

    let timer: NodeJS.Timeout;
    const upload = /^multipart\//i.test(String(raw.headers['content-type'] ?? ''));
    if (!upload) {
      timer = setTimeout(() => cut('body deadline'), config.BODY_TIMEOUT_MS);
    } else if (config.UPLOAD_MIN_BYTES_PER_SECOND > 0) {
      const windowMs = config.UPLOAD_RATE_WINDOW_MS;
      const minimum = (config.UPLOAD_MIN_BYTES_PER_SECOND * windowMs) / 1000;
      let seen = socket.bytesRead;
      timer = setInterval(() => {
        if (raw.complete) return stop();
        const now = socket.bytesRead;
        // Bytes still waiting in the request's buffer mean we read slowly, not the client: that window
        // does not count.
        const ours = raw.readableLength > 0 || raw.isPaused();
        if (!ours && now - seen < minimum) return cut('upload below the minimum rate');
        seen = now;
      }, windowMs);
    } else {
      return done();
    }
    timer.unref();
    function stop() {
      clearTimeout(timer);
      clearInterval(timer);
    }
    // Not stopped by the answer: a body that is not read (a 401 first) is still received, and drained.
    raw.once('end', stop);
    raw.once('close', stop);
    done();
  });
}
