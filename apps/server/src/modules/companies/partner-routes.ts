import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  apiPaths,
  carePageCreateSchema,
  carePageParamsSchema,
  carePageSchema,
  carePagesSchema,
  colleagueParamsSchema,
  colleaguesSchema,
  companyInvitationParamsSchema,
  handoverAcceptSchema,
  handoverAcceptedSchema,
  handoverCodeParamSchema,
  handoverMembersSchema,
  handoverPreviewSchema,
  idParamSchema,
  inviteColleagueSchema,
  memorialCareSchema,
  memorialCareUpdateSchema,
  setColleagueAdminSchema,
} from '@aandenken/contract';
import { z } from 'zod';
import type { Deps } from '../../lib/deps.ts';
import { errorResponses } from '../../lib/schemas.ts';
import { partnerService } from './partner-service.ts';

const tags = ['partners'];
const security = [{ bearer: [] }];
const errors = { ...errorResponses, 410: errorResponses[404] };

/** The partner portal's colleagues and pages for families, and the family's side of the handover. */
export const partnerRoutes =
  (deps: Pick<Deps, 'db' | 'outbox' | 'config'>): FastifyPluginAsync =>
  async (fastify) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const service = partnerService(deps);

    app.get(
      apiPaths.companyUsers.pattern,
      {
        schema: {
          tags,
          security,
          summary: 'Collega’s van het bedrijf, met de open uitnodigingen voor beheerders',
          params: idParamSchema,
          response: { 200: colleaguesSchema, ...errors },
        },
      },
      async (req) => service.colleagues(await req.caller(), req.params.id),
    );
    app.put(
      apiPaths.companyUser.pattern,
      {
        schema: {
          tags,
          security,
          summary: 'Een collega beheerder maken of dat terugnemen (beheerder)',
          description: 'Een bedrijf houdt altijd minstens één beheerder (409 LAST_ADMIN).',
          params: colleagueParamsSchema,
          body: setColleagueAdminSchema,
          response: { 200: colleaguesSchema, ...errors },
        },
      },
      async (req) => service.setAdmin(await req.caller(), req.params.id, req.params.userId, req.body.isAdmin),
    );
    app.delete(
      apiPaths.companyUser.pattern,
      {
        schema: {
          tags,
          security,
          summary: 'Een collega verwijderen (beheerder) of zelf vertrekken',
          description: 'De partnerrechten eindigen meteen. De laatste beheerder blijft (409 LAST_ADMIN).',
          params: colleagueParamsSchema,
          response: { 204: z.null(), ...errors },
        },
      },
      async (req, reply) => {
        await service.removeUser(await req.caller(), req.params.id, req.params.userId);
        return reply.status(204).send(null);
      },
    );
    app.post(
      apiPaths.companyInvitations.pattern,
      {
        config: { rateLimit: { max: 30, timeWindow: '1 hour' } },
        schema: {
          tags,
          security,
          summary: 'Een collega uitnodigen per e-mail (beheerder)',
          description:
            'De uitgenodigde logt in of registreert met dit adres; zodra het bevestigd is, hoort hij bij het bedrijf.',
          params: idParamSchema,
          body: inviteColleagueSchema,
          response: { 201: colleaguesSchema, ...errors },
        },
      },
      async (req, reply) =>
        reply.status(201).send(await service.invite(await req.caller(), req.params.id, req.body.email)),
    );
    app.delete(
      apiPaths.companyInvitation.pattern,
      {
        schema: {
          tags,
          security,
          summary: 'Een uitnodiging voor een collega intrekken (beheerder)',
          params: companyInvitationParamsSchema,
          response: { 204: z.null(), ...errors },
        },
      },
      async (req, reply) => {
        await service.revokeInvitation(await req.caller(), req.params.id, req.params.invitationId);
        return reply.status(204).send(null);
      },
    );
    app.get(
      apiPaths.companyPages.pattern,
      {
        schema: {
          tags,
          security,
          summary: 'Pagina’s die het bedrijf voor families maakte, met status en tellers',
          params: idParamSchema,
          response: { 200: carePagesSchema, ...errors },
        },
      },
      async (req) => service.pages(await req.caller(), req.params.id),
    );
    app.post(
      apiPaths.companyPages.pattern,
      {
        config: { rateLimit: { max: 60, timeWindow: '1 hour' } },
        schema: {
          tags,
          security,
          summary: 'Een gedenkpagina maken voor een familie',
          description:
            'De pagina begint als concept; de familie krijgt een e-mail om de pagina over te nemen (/overnemen/{code}, 14 dagen geldig). Tot dan beheren de gebruikers van het bedrijf de pagina.',
          params: idParamSchema,
          body: carePageCreateSchema,
          response: { 201: carePageSchema, ...errors },
        },
      },
      async (req, reply) =>
        reply.status(201).send(await service.createPage(await req.caller(), req.params.id, req.body)),
    );
    app.post(
      apiPaths.companyPageResend.pattern,
      {
        config: { rateLimit: { max: 30, timeWindow: '1 hour' } },
        schema: {
          tags,
          security,
          summary: 'De uitnodiging aan de familie opnieuw versturen',
          description: 'Met een nieuwe link en een nieuwe geldigheid; de vorige link werkt niet meer.',
          params: carePageParamsSchema,
          response: { 200: carePageSchema, ...errors },
        },
      },
      async (req) => service.resend(await req.caller(), req.params.id, req.params.memorialId),
    );
    app.get(
      apiPaths.handover.pattern,
      {
        config: {
          allowAnonymous: true,
          rateLimit: { max: 30, timeWindow: '1 minute' },
          logSecrets: { params: ['code'] },
        },
        schema: {
          tags,
          summary: 'Een pagina om over te nemen bekijken, met de code uit de link',
          params: handoverCodeParamSchema,
          response: { 200: handoverPreviewSchema, ...errors },
        },
      },
      async (req) => service.preview(req.params.code),
    );
    app.post(
      apiPaths.handoverAccept.pattern,
      {
        config: { rateLimit: { max: 30, timeWindow: '1 minute' }, logSecrets: { params: ['code'] } },
        schema: {
          tags,
          security,
          summary: 'De pagina overnemen als familie (ingelogd, bevestigd e-mailadres)',
          description:
            'De gebruiker wordt eigenaar en kiest of de uitvaartondernemer mag blijven meebeheren en of "Verzorgd door" op de pagina staat. Zonder meebeheren vervallen de open uitnodigingen, blijven van de door het bedrijf uitgenodigde mensen alleen die in keepMemberIds, en krijgt de pagina een nieuwe toegangscode (in het antwoord), tenzij keepAccessCode.',
          params: handoverCodeParamSchema,
          body: handoverAcceptSchema,
          response: { 200: handoverAcceptedSchema, ...errors },
        },
      },
      async (req) => service.accept(await req.caller(), req.params.code, req.body),
    );
    app.get(
      apiPaths.handoverMembers.pattern,
      {
        config: { rateLimit: { max: 30, timeWindow: '1 minute' }, logSecrets: { params: ['code'] } },
        schema: {
          tags,
          security,
          summary:
            'Wie de uitvaartondernemer uitnodigde, vóór het overnemen (ingelogd, bevestigd e-mailadres)',
          description:
            'Neemt de familie de pagina over zonder dat de uitvaartondernemer mag meebeheren, dan kiest zij wie van deze mensen blijft; de open uitnodigingen vervallen.',
          params: handoverCodeParamSchema,
          response: { 200: handoverMembersSchema, ...errors },
        },
      },
      async (req) => service.members(await req.caller(), req.params.code),
    );
    app.get(
      apiPaths.memorialCare.pattern,
      {
        schema: {
          tags,
          security,
          summary: 'Welke uitvaartondernemer de pagina maakte en wat de familie koos (eigenaar, redacteur)',
          params: idParamSchema,
          response: { 200: memorialCareSchema, ...errors },
        },
      },
      async (req) => service.care(await req.caller(), req.params.id),
    );
    app.put(
      apiPaths.memorialCare.pattern,
      {
        schema: {
          tags,
          security,
          summary:
            'Meebeheren door de uitvaartondernemer toestaan of intrekken; "Verzorgd door" tonen (eigenaar)',
          params: idParamSchema,
          body: memorialCareUpdateSchema,
          response: { 200: memorialCareSchema, ...errors },
        },
      },
      async (req) => service.updateCare(await req.caller(), req.params.id, req.body),
    );
  };
