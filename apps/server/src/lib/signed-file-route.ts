import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiErrorSchema } from '@aandenken/contract';
import type { Caller } from './auth.ts';
import { downloadHeaders } from './signed-download.ts';

type OpenFile = (o: {
  id: string;
  exp?: string;
  sig?: string;
  caller: () => Promise<Caller>;
}) => Promise<{ filename: string; size?: number; body: unknown }>;

/**
 * The route of a file behind a signed link (a generated file, `lib/generated-files.ts`, or an invoice): opens without signing in
 * (the link is the key), keeps `sig` out of the log, never lets a cache or a referrer keep it. Every such
 * route is registered here, so they answer alike.
 */
export function signedFileRoute<P extends string>(
  fastify: FastifyInstance,
  o: {
    pattern: string;
    idParam: P;
    params: z.core.$ZodType<Record<P, string>>;
    querystring: z.core.$ZodType<{ exp?: string; sig?: string; download?: string }>;
    tags: string[];
    summary: string;
    description: string;
    /** The file's type; `inline` lets the browser show it (unless `download=1`). */
    contentType: string;
    contentDescription: string;
    inline?: boolean;
    open: OpenFile;
  },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    o.pattern,
    {
      config: { allowAnonymous: true, logSecrets: { query: ['sig'] } },
      schema: {
        tags: o.tags,
        security: [{ bearer: [] }, {}] as Record<string, string[]>[],
        summary: o.summary,
        description: o.description,
        params: o.params,
        querystring: o.querystring,
        response: {
          200: {
            description: o.contentDescription,
            content: { [o.contentType]: { schema: z.string().meta({ format: 'binary' }) } },
          },
          400: apiErrorSchema,
          401: apiErrorSchema,
          403: apiErrorSchema,
          404: apiErrorSchema,
          429: apiErrorSchema,
          503: apiErrorSchema,
        },
      },
    },
    async (req, reply) => {
      const params = req.params as Record<P, string>;
      const query = req.query as { exp?: string; sig?: string; download?: string };
      const file = await o.open({
        id: params[o.idParam],
        exp: query.exp,
        sig: query.sig,
        caller: () => req.caller(),
      });
      return downloadHeaders(reply, file, {
        type: o.contentType,
        inline: o.inline === true && query.download !== '1',
      }).send(file.body as unknown as string);
    },
  );
}
