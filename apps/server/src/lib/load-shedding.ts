import { getHeapStatistics } from 'node:v8';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import underPressure, { type FastifyUnderPressureOptions } from '@fastify/under-pressure';
import { errorCodes } from '@aandenken/contract';
import type { Config } from '../config.ts';

export const OVERLOAD_RETRY_AFTER_SECONDS = 5;
export const overloadedMessage =
  'Het is nu erg druk bij Aandenken. Probeer het over een paar seconden opnieuw.';

/** The heap limit shedding starts at: the setting, else 90 % of what Node may use (0 = off). */
export const maxHeapUsedBytes = (config: Pick<Config, 'OVERLOAD_MAX_HEAP_USED_MB'>) =>
  config.OVERLOAD_MAX_HEAP_USED_MB === undefined
    ? Math.floor(getHeapStatistics().heap_size_limit * 0.9)
    : config.OVERLOAD_MAX_HEAP_USED_MB * 1024 * 1024;

/**
 * Load shedding: while the event loop lags or the heap is nearly full, every request the
 * framework sees is answered at once with 503 `OVERLOADED` and `Retry-After`, before any work is done for
 * it, so the process recovers instead of stalling. `/healthz` answers the same way: it tells a load
 * balancer the truth. Cached shared reads are answered before the framework (response-cache-plugin.ts)
 * and cost almost nothing; they are not shed.
 */
export async function registerLoadShedding(
  app: FastifyInstance,
  config: Pick<Config, 'OVERLOAD_MAX_EVENT_LOOP_DELAY_MS' | 'OVERLOAD_MAX_HEAP_USED_MB'>,
) {
  await app.register(underPressure, {
    maxEventLoopDelay: config.OVERLOAD_MAX_EVENT_LOOP_DELAY_MS,
    maxHeapUsedBytes: maxHeapUsedBytes(config),
    sampleInterval: 1000,
    // A returned body is sent by the plugin and ends the request there (its types say void; its code
    // sends what is returned). Sending here and returning nothing would let the request go on.
    pressureHandler: ((req: FastifyRequest, reply: FastifyReply, type: string, value: number | undefined) => {
      req.log.warn({ type, value }, 'under pressure: request shed');
      reply.status(503).header('retry-after', String(OVERLOAD_RETRY_AFTER_SECONDS));
      return { code: errorCodes.overloaded, message: overloadedMessage };
    }) as unknown as FastifyUnderPressureOptions['pressureHandler'],
  });
}
