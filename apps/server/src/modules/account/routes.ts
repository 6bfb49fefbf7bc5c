import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  apiPaths,
  accountDeleteResultSchema,
  accountDeleteSchema,
  signInMethodsSchema,
} from '@aandenken/contract';
import type { SeenUsers } from '../../lib/auth.ts';
import type { Deps } from '../../lib/deps.ts';
import type { ForgetPerson } from '../../shared/forget-person.ts';
import { errorResponses } from '../../lib/schemas.ts';
import { accountService, registerAccountJobs, signInMethods, type EndAllSessions } from './service.ts';

export const accountRoutes =
  (
    deps: Pick<Deps, 'db' | 'queue' | 'config' | 'clock' | 'outbox'>,
    o: { seen: SeenUsers; endAllSessions: EndAllSessions; forgetSignIns: ForgetPerson },
  ): FastifyPluginAsync =>
  async (fastify) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const service = accountService(deps, o.endAllSessions, o.forgetSignIns);
    registerAccountJobs(deps);

    app.get(
      apiPaths.signInMethods.pattern,
      {
        config: { allowAnonymous: true },
        schema: {
          tags: ['account'],
          summary: 'Manieren om in te loggen',
          description:
            'Of de knop "Inloggen met Google" zin heeft: zonder Google-koppeling loopt hij dood, dus toont de site hem dan niet.',
          response: { 200: signInMethodsSchema },
        },
      },
      async (_req, reply) => {
        // Changes only with the configuration, i.e. a restart.
        reply.header('cache-control', 'public, max-age=300');
        return signInMethods(deps.config);
      },
    );

    app.post(
      apiPaths.accountDelete.pattern,
      {
        schema: {
          tags: ['account'],
          security: [{ bearer: [] }],
          summary: 'Mijn account verwijderen',
          description:
            "Bevestigd met het eigen e-mailadres of 'VERWIJDEREN'. Inloggen stopt overal; herinneringen en foto's blijven op de pagina's, van 'een voormalig lid'; een pagina zonder andere eigenaar gaat naar het volgende lid (redacteur eerst), of wordt na 30 dagen verwijderd als er geen lid meer is (docs/privacy.md).",
          body: accountDeleteSchema,
          response: { 200: accountDeleteResultSchema, ...errorResponses },
        },
      },
      async (req) => {
        const caller = await req.caller();
        const result = await service.delete(caller, req.body);
        if (caller.kind === 'user') o.seen.forget(caller.userId);
        return result;
      },
    );
  };
