import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import type { Deps } from '../../lib/deps.ts';

export const healthRoutes =
  ({ db }: Pick<Deps, 'db'>): FastifyPluginAsync =>
  async (app) => {
    app.get(
      '/healthz',
      {
        schema: {
          hide: true,
          response: {
            200: z.object({ status: z.literal('ok') }),
            503: z.object({ code: z.string(), message: z.string() }),
          },
        },
      },
      async (_req, reply) => {
        try {
          await db.query('SELECT 1');
          reply.header('cache-control', 'no-store');
          return { status: 'ok' as const };
        } catch {
          return reply
            .status(503)
            .send({ code: 'DATABASE_UNAVAILABLE', message: 'De database antwoordt niet.' });
        }
      },
    );
  };
