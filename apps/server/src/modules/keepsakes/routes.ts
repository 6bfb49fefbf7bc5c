import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  apiPaths,
  biographyAnswerSchema,
  biographyAnswerUpdateSchema,
  biographyGenerateSchema,
  biographySchema,
  biographyTemplateParamsSchema,
  biographyTemplateSchema,
  idParamSchema,
} from '@aandenken/contract';
import type { Deps } from '../../lib/deps.ts';
import { errorResponses } from '../../lib/schemas.ts';
import { keepsakesService } from './service.ts';

const tags = ['keepsakes'];
const security = [{ bearer: [] }];

export const keepsakeRoutes =
  (deps: Pick<Deps, 'db' | 'responseCache'>): FastifyPluginAsync =>
  async (fastify) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const service = keepsakesService(deps);

    app.get(
      apiPaths.biographyTemplate.pattern,
      {
        schema: {
          tags,
          security,
          summary: 'Vragenlijst levensverhaal: de antwoorden (eigenaar, redacteur)',
          params: idParamSchema,
          response: { 200: biographyTemplateSchema, ...errorResponses },
        },
      },
      async (req) => service.getTemplate(await req.caller(), req.params.id),
    );

    app.put(
      apiPaths.biographyAnswer.pattern,
      {
        config: { rateLimit: { max: 600, timeWindow: '1 hour' } },
        schema: {
          tags,
          security,
          summary: 'Vragenlijst levensverhaal: één antwoord opslaan (eigenaar, redacteur)',
          description: 'Wordt tijdens het typen bewaard; een leeg antwoord mag. Onbekende vraag: 404.',
          params: biographyTemplateParamsSchema,
          body: biographyAnswerUpdateSchema,
          response: { 200: biographyAnswerSchema, ...errorResponses },
        },
      },
      async (req) =>
        service.saveAnswer(await req.caller(), req.params.id, req.params.questionKey, req.body.text),
    );

    app.post(
      apiPaths.biographyGenerate.pattern,
      {
        schema: {
          tags,
          security,
          summary: 'Vragenlijst levensverhaal: een eerste levensverhaal maken (eigenaar, redacteur)',
          description:
            'Maakt alinea’s van de antwoorden en zet ze in het levensverhaal. Een bestaand levensverhaal wordt alleen vervangen met `replace: true`, anders 409.',
          params: idParamSchema,
          body: biographyGenerateSchema,
          response: { 200: biographySchema, ...errorResponses },
        },
      },
      async (req) => service.generate(await req.caller(), req.params.id, req.body.replace),
    );
  };
