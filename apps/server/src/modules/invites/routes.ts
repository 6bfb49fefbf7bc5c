import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  apiPaths,
  idParamSchema,
  inviteAcceptParamSchema,
  inviteAcceptedSchema,
  inviteCodeParamSchema,
  inviteCreateSchema,
  invitePreviewSchema,
  inviteQueryResultSchema,
  inviteQuerySchema,
  inviteSchema,
  inviteSentSchema,
  memorialIdParamSchema,
} from '@aandenken/contract';
import type { Deps } from '../../lib/deps.ts';
import { errorResponses } from '../../lib/schemas.ts';
import { inviteService } from './service.ts';

const tags = ['guest invites'];
const security = [{ bearer: [] }];
const errors = { ...errorResponses, 410: errorResponses[404] };

export const inviteRoutes =
  (deps: Pick<Deps, 'db' | 'config' | 'outbox'>): FastifyPluginAsync =>
  async (fastify) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const service = inviteService(deps);

    app.post(
      apiPaths.invitesQuery.pattern,
      {
        schema: {
          tags,
          security,
          summary: 'Uitnodigingen van een gedenkpagina (eigenaar, redacteur)',
          description: 'Nieuwste eerst, per pagina; optioneel op status.',
          body: inviteQuerySchema,
          response: { 200: inviteQueryResultSchema, ...errors },
        },
      },
      async (req) => service.list(await req.caller(), req.body),
    );

    app.get(
      apiPaths.inviteByCode.pattern,
      {
        config: {
          allowAnonymous: true,
          rateLimit: { max: 30, timeWindow: '1 minute' },
          logSecrets: { params: ['inviteCode'] },
        },
        schema: {
          tags,
          summary: 'Uitnodiging bekijken met de code uit de link',
          description:
            'Voor iedereen met de code: wie nodigt uit, voor welke pagina, met welke rol, en of de uitnodiging verlopen is. Ingetrokken of onbekend: 404.',
          params: inviteCodeParamSchema,
          response: { 200: invitePreviewSchema, ...errors },
        },
      },
      async (req) => service.preview(req.params.inviteCode),
    );

    app.post(
      apiPaths.inviteAccept.pattern,
      {
        config: { rateLimit: { max: 30, timeWindow: '1 minute' }, logSecrets: { params: ['code'] } },
        schema: {
          tags,
          security,
          summary: 'Uitnodiging aannemen (ingelogd)',
          description:
            'De ingelogde gebruiker wordt lid met de rol uit de uitnodiging; was hij al lid met een gelijke of sterkere rol, dan verandert er niets. Verlopen: 410 INVITE_EXPIRED; door een ander gebruikt: 410 INVITE_USED; ingetrokken of onbekend: 404.',
          params: inviteAcceptParamSchema,
          response: { 200: inviteAcceptedSchema, ...errors },
        },
      },
      async (req) => service.accept(await req.caller(), req.params.code),
    );

    app.post(
      apiPaths.inviteResend.pattern,
      {
        config: { rateLimit: { max: 30, timeWindow: '1 hour' } },
        schema: {
          tags,
          security,
          summary: 'Uitnodiging opnieuw versturen (eigenaar, redacteur)',
          description:
            'Met een nieuwe code en een nieuwe geldigheid van 14 dagen; de vorige link werkt niet meer.',
          params: idParamSchema,
          response: { 200: inviteSentSchema, ...errors },
        },
      },
      async (req) => service.resend(await req.caller(), req.params.id),
    );

    app.post(
      apiPaths.inviteCreate.pattern,
      {
        config: { rateLimit: { max: 60, timeWindow: '1 hour' } },
        schema: {
          tags,
          security,
          summary: 'Iemand uitnodigen per e-mail (eigenaar, redacteur)',
          description:
            'Stuurt een Nederlandse e-mail met de link /uitnodiging/{code} (14 dagen geldig). Eigenaren nodigen redacteuren, bijdragers en gasten uit; redacteuren bijdragers en gasten.',
          params: memorialIdParamSchema,
          body: inviteCreateSchema,
          response: { 201: inviteSentSchema, ...errors },
        },
      },
      async (req, reply) =>
        reply.status(201).send(await service.create(await req.caller(), req.params.memorialId, req.body)),
    );

    app.get(
      apiPaths.invite.pattern,
      {
        schema: {
          tags,
          security,
          summary: 'Een uitnodiging lezen (eigenaar, redacteur)',
          params: idParamSchema,
          response: { 200: inviteSchema, ...errors },
        },
      },
      async (req) => service.get(await req.caller(), req.params.id),
    );

    app.delete(
      apiPaths.invite.pattern,
      {
        schema: {
          tags,
          security,
          summary: 'Uitnodiging intrekken (eigenaar, redacteur)',
          description: 'De link werkt daarna niet meer. Al ingetrokken: 204; al geaccepteerd: 409.',
          params: idParamSchema,
          response: { 204: z.null().describe('Ingetrokken'), ...errors },
        },
      },
      async (req, reply) => {
        await service.revoke(await req.caller(), req.params.id);
        return reply.status(204).send(null);
      },
    );
  };
