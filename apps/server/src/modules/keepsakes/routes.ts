import { PassThrough } from 'node:stream';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  aiDraftEventSchema,
  aiDraftInfoSchema,
  aiDraftRequestSchema,
  apiPaths,
  biographyHelpEndpoints,
  idParamSchema,
} from '@aandenken/contract';
import type { Deps } from '../../lib/deps.ts';
import { endpointRoute } from '../../lib/endpoint.ts';
import { errorResponses } from '../../lib/schemas.ts';
import { aiDraftService } from './ai-draft.ts';
import { keepsakesService } from './service.ts';

const tags = ['keepsakes'];
const security = [{ bearer: [] }];

export const keepsakeRoutes =
  (deps: Pick<Deps, 'db' | 'responseCache' | 'config'>): FastifyPluginAsync =>
  async (fastify) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const service = keepsakesService(deps);
    const aiDraft = aiDraftService(deps);

    app.get(
      apiPaths.biographyAiDraft.pattern,
      {
        schema: {
          tags,
          security,
          summary:
            'AI-concept levensverhaal: wat er kan worden meegestuurd, en waarheen (eigenaar, redacteur)',
          description:
            'Of de server een AI-dienst heeft (LLM_*), of het abonnement het toestaat (Premium), de host waar de gekozen teksten heen gaan, de ingevulde antwoorden en de gepubliceerde herinneringen.',
          params: idParamSchema,
          response: { 200: aiDraftInfoSchema, ...errorResponses },
        },
      },
      async (req) => aiDraft.info(await req.caller(), req.params.id),
    );

    app.post(
      apiPaths.biographyAiDraft.pattern,
      {
        // Streamed as it is written: compression would hold the pieces back.
        compress: false,
        config: { rateLimit: { max: 30, timeWindow: '1 hour' } },
        schema: {
          tags,
          security,
          summary: 'AI-concept levensverhaal schrijven (Premium; eigenaar, redacteur)',
          description:
            'Stuurt alleen de gekozen antwoorden en herinneringen (met naam, data en plaatsen van geboorte en overlijden) naar de ingestelde AI-dienst. Het antwoord is NDJSON, één gebeurtenis per regel: `start`, `delta` (tekst zoals hij binnenkomt), dan `done` (alinea’s met hun bronnen en de namen en data die niet in de bronnen staan) of `error`. Er wordt niets opgeslagen of vervangen. Basis: 403 PLAN_FEATURE; geen AI-dienst ingesteld: 409 AI_DRAFT_DISABLED; niets gekozen: 400.',
          params: idParamSchema,
          body: aiDraftRequestSchema,
          response: { 200: aiDraftEventSchema, ...errorResponses },
        },
      },
      async (req, reply) => {
        const prepared = await aiDraft.prepare(await req.caller(), req.params.id, req.body);
        const out = new PassThrough();
        const abort = new AbortController();
        // The caller went away before the end: stop asking the endpoint.
        reply.raw.on('close', () => {
          if (!reply.raw.writableFinished) abort.abort();
        });
        void (async () => {
          try {
            for await (const event of aiDraft.run(prepared, abort.signal)) {
              if (abort.signal.aborted) break;
              out.write(`${JSON.stringify(event)}\n`);
            }
          } catch (err) {
            req.log.warn({ err }, 'AI draft stream failed');
          } finally {
            out.end();
          }
        })();
        return reply
          .header('content-type', 'application/x-ndjson; charset=utf-8')
          .header('cache-control', 'no-store')
          .header('x-accel-buffering', 'no')
          .send(out as never);
      },
    );

    // The biography questions: method, path and schemas from the contract (biographyHelpEndpoints).
    app.route({
      ...endpointRoute(biographyHelpEndpoints.template, {
        tags,
        security,
        summary: 'Vragenlijst levensverhaal: de antwoorden (eigenaar, redacteur)',
      }),
      handler: async (req) => service.getTemplate(await req.caller(), req.params.id),
    });

    app.route({
      ...endpointRoute(biographyHelpEndpoints.saveAnswer, {
        tags,
        security,
        summary: 'Vragenlijst levensverhaal: één antwoord opslaan (eigenaar, redacteur)',
        description: 'Wordt tijdens het typen bewaard; een leeg antwoord mag. Onbekende vraag: 404.',
      }),
      config: { rateLimit: { max: 600, timeWindow: '1 hour' } },
      handler: async (req) =>
        service.saveAnswer(await req.caller(), req.params.id, req.params.questionKey, req.body.text),
    });

    app.route({
      ...endpointRoute(biographyHelpEndpoints.generate, {
        tags,
        security,
        summary: 'Vragenlijst levensverhaal: een eerste levensverhaal maken (eigenaar, redacteur)',
        description:
          'Maakt alinea’s van de antwoorden en zet ze in het levensverhaal. Een bestaand levensverhaal wordt alleen vervangen met `replace: true`, anders 409.',
      }),
      handler: async (req) => service.generate(await req.caller(), req.params.id, req.body.replace),
    });
  };
