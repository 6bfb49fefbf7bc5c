import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  apiPaths,
  idParamSchema,
  memorialPlanSchema,
  teamMemorialPlanSchema,
  teamMemorialSearchSchema,
  teamMemorialsSchema,
  teamPlanSetSchema,
} from '@aandenken/contract';
import type { Deps } from '../../lib/deps.ts';
import { errorResponses } from '../../lib/schemas.ts';
import { planService } from './service.ts';

const tags = ['plans'];
const security = [{ bearer: [] }];
/** How often the reminder mails are looked for. */
const SWEEP_EVERY_MS = 3_600_000;

/** A memorial's plan (docs/plans.md), the team's hand on it, and the hourly reminder mails. */
export const planRoutes =
  (deps: Pick<Deps, 'db' | 'config' | 'outbox' | 'clock'>): FastifyPluginAsync =>
  async (fastify) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const service = planService(deps);

    // The reminders: a minute after start, then every hour. Each mail is claimed in the database
    // (memorial_plan_notices), so several processes or a restart never send one twice.
    let timer: NodeJS.Timeout | undefined;
    const sweep = () =>
      service.sweep().catch((err: unknown) => fastify.log.warn({ err }, 'plan reminders failed'));
    fastify.addHook('onReady', async () => {
      timer = setTimeout(function again() {
        void sweep().finally(() => {
          if (timer) timer = setTimeout(again, SWEEP_EVERY_MS).unref();
        });
      }, 60_000).unref();
    });
    fastify.addHook('onClose', async () => {
      clearTimeout(timer);
      timer = undefined;
    });

    app.get(
      apiPaths.memorialPlan.pattern,
      {
        schema: {
          tags,
          security,
          summary: 'Het abonnement van een gedenkpagina',
          description:
            'Voor leden en gasten: proefperiode, Basis of Premium, tot wanneer, of de pagina alleen te lezen is en hoeveel herinneringen er nog bij kunnen. Eigenaren en redacteuren zien ook de betalingen.',
          params: idParamSchema,
          response: { 200: memorialPlanSchema, ...errorResponses },
        },
      },
      async (req) => service.get(await req.caller(), req.params.id),
    );

    app.get(
      apiPaths.teamMemorials.pattern,
      {
        schema: {
          tags,
          security,
          summary: 'Een gedenkpagina zoeken op naam of nummer (team)',
          description: 'Alleen het team: tot 20 pagina’s met hun abonnement.',
          querystring: teamMemorialSearchSchema,
          response: { 200: teamMemorialsSchema, ...errorResponses },
        },
      },
      async (req) => service.teamSearch(await req.caller(), req.query.q),
    );

    app.get(
      apiPaths.teamMemorialPlan.pattern,
      {
        schema: {
          tags,
          security,
          summary: 'Het abonnement, de betalingen en facturen van een pagina (team)',
          params: idParamSchema,
          response: { 200: teamMemorialPlanSchema, ...errorResponses },
        },
      },
      async (req) => service.teamGet(await req.caller(), req.params.id),
    );

    app.post(
      apiPaths.teamMemorialPlan.pattern,
      {
        schema: {
          tags,
          security,
          summary: 'Het abonnement van een pagina met de hand instellen (team)',
          description:
            'Alleen het team: bijvoorbeeld als online betalen uitstaat. Komt met de reden in het logboek van de pagina.',
          params: idParamSchema,
          body: teamPlanSetSchema,
          response: { 200: teamMemorialPlanSchema, ...errorResponses },
        },
      },
      async (req) => service.teamSet(await req.caller(), req.params.id, req.body),
    );
  };
