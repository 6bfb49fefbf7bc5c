import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  apiPaths,
  idParamSchema,
  memberQueryResultSchema,
  memberQuerySchema,
  memberRoleUpdateSchema,
  memberSchema,
  memorialIdParamSchema,
  selfRoleSchema,
} from '@aandenken/contract';
import type { Deps } from '../../lib/deps.ts';
import { errorResponses } from '../../lib/schemas.ts';
import { memberService } from './service.ts';

const tags = ['members'];
const security = [{ bearer: [] }];

export const memberRoutes =
  (deps: Pick<Deps, 'db'>): FastifyPluginAsync =>
  async (fastify) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const service = memberService(deps);

    app.post(
      apiPaths.membersQuery.pattern,
      {
        schema: {
          tags,
          security,
          summary: 'Leden van een gedenkpagina (eigenaar, redacteur)',
          description: 'Met naam, e-mailadres en rol; eerst toegetreden eerst, per pagina.',
          body: memberQuerySchema,
          response: { 200: memberQueryResultSchema, ...errorResponses },
        },
      },
      async (req) => service.list(await req.caller(), req.body),
    );

    app.get(
      apiPaths.memberSelfRole.pattern,
      {
        schema: {
          tags,
          security,
          summary: 'Mijn rol op een gedenkpagina',
          description:
            "Vraagt om een ingelogde gebruiker of een gasttoken (anders 401): 'visitor' op een openbare pagina zonder lidmaatschap, 'guest' met een gasttoken van deze pagina.",
          params: memorialIdParamSchema,
          response: { 200: selfRoleSchema, ...errorResponses },
        },
      },
      async (req) => service.selfRole(await req.caller(), req.params.memorialId),
    );

    app.put(
      apiPaths.memberRole.pattern,
      {
        schema: {
          tags,
          security,
          summary: 'Rol van een lid wijzigen',
          description:
            'Een eigenaar wijzigt elke rol (ook eigenaren); een redacteur alleen bijdragers en gasten, naar bijdrager of gast. De laatste eigenaar blijft eigenaar (409 LAST_OWNER).',
          body: memberRoleUpdateSchema,
          response: { 200: memberSchema, ...errorResponses },
        },
      },
      async (req) => service.setRole(await req.caller(), req.body.memberId, req.body.role),
    );

    app.get(
      apiPaths.member.pattern,
      {
        schema: {
          tags,
          security,
          summary: 'Een lidmaatschap lezen',
          description: 'Voor eigenaren en redacteuren van de pagina, en voor het lid zelf.',
          params: idParamSchema,
          response: { 200: memberSchema, ...errorResponses },
        },
      },
      async (req) => service.get(await req.caller(), req.params.id),
    );

    app.delete(
      apiPaths.member.pattern,
      {
        schema: {
          tags,
          security,
          summary: 'Lid verwijderen of de pagina verlaten',
          description:
            'Een eigenaar verwijdert iedereen; een redacteur bijdragers en gasten; ieder lid kan zichzelf verwijderen. De laatste eigenaar kan niet weg (409 LAST_OWNER).',
          params: idParamSchema,
          response: { 204: z.null().describe('Verwijderd'), ...errorResponses },
        },
      },
      async (req, reply) => {
        await service.remove(await req.caller(), req.params.id);
        return reply.status(204).send(null);
      },
    );
  };
