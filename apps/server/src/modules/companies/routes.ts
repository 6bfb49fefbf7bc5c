import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  apiPaths,
  companyRequestResultSchema,
  companyRequestSchema,
  companyResponseSchema,
  idParamSchema,
  rejectApplicationSchema,
  teamApplicationsSchema,
  teamCompaniesSchema,
  teamCompanySchema,
  accountRolesSchema,
  grantTeamSchema,
  teamMembersSchema,
} from '@aandenken/contract';
import { z } from 'zod';
import type { Deps } from '../../lib/deps.ts';
import { errorResponses } from '../../lib/schemas.ts';
import { companyService } from './service.ts';

export const companyRoutes =
  (deps: Pick<Deps, 'db' | 'outbox' | 'config'>): FastifyPluginAsync =>
  async (fastify) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const service = companyService(deps);
    app.post(
      apiPaths.companyRequest.pattern,
      {
        config: { allowAnonymous: true, rateLimit: { max: 10, timeWindow: '1 hour' } },
        schema: {
          tags: ['companies'],
          summary: 'Partneraanvraag indienen',
          body: companyRequestSchema,
          response: { 201: companyRequestResultSchema, ...errorResponses },
        },
      },
      async (req, reply) => {
        const company = await service.request(req.body, req.log);
        return reply.status(201).send({ id: company.id, status: company.status });
      },
    );
    app.get(
      apiPaths.company.pattern,
      {
        schema: {
          tags: ['companies'],
          summary: 'Bedrijf of partneraanvraag bekijken (het team en de eigen gebruikers van het bedrijf)',
          security: [{ bearer: [] }],
          params: idParamSchema,
          response: { 200: companyResponseSchema, ...errorResponses },
        },
      },
      async (req) => service.get(await req.caller(), req.params.id),
    );
    app.get(
      apiPaths.accountRoles.pattern,
      {
        schema: {
          tags: ['companies'],
          summary: 'Eigen rollen: team, partnergebruiker van welke bedrijven',
          description:
            'Met een bevestigd e-mailadres wordt de gebruiker eerst de eerste partnergebruiker (en beheerder) van de bedrijven die voor dat adres zijn goedgekeurd.',
          security: [{ bearer: [] }],
          response: { 200: accountRolesSchema, ...errorResponses },
        },
      },
      async (req) => service.roles(await req.caller()),
    );
    app.get(
      apiPaths.teamApplications.pattern,
      {
        schema: {
          tags: ['team'],
          summary: 'Openstaande partneraanvragen (het team)',
          security: [{ bearer: [] }],
          response: { 200: teamApplicationsSchema, ...errorResponses },
        },
      },
      async (req) => service.pendingApplications(await req.caller()),
    );
    app.post(
      apiPaths.teamApprove.pattern,
      {
        schema: {
          tags: ['team'],
          summary: 'Partneraanvraag goedkeuren: het bedrijf wordt aangemaakt (het team)',
          security: [{ bearer: [] }],
          params: idParamSchema,
          response: { 200: companyResponseSchema, ...errorResponses },
        },
      },
      async (req) => service.approve(await req.caller(), req.params.id),
    );
    app.post(
      apiPaths.teamReject.pattern,
      {
        schema: {
          tags: ['team'],
          summary: 'Partneraanvraag afwijzen met een reden (het team)',
          security: [{ bearer: [] }],
          params: idParamSchema,
          body: rejectApplicationSchema,
          response: { 200: companyResponseSchema, ...errorResponses },
        },
      },
      async (req) => service.reject(await req.caller(), req.params.id, req.body.reason),
    );
    app.get(
      apiPaths.teamCompanies.pattern,
      {
        schema: {
          tags: ['team'],
          summary: 'Bedrijven met hun status (het team)',
          security: [{ bearer: [] }],
          response: { 200: teamCompaniesSchema, ...errorResponses },
        },
      },
      async (req) => service.companies(await req.caller()),
    );
    app.post(
      apiPaths.teamSuspend.pattern,
      {
        schema: {
          tags: ['team'],
          summary: 'Bedrijf schorsen: de gebruikers verliezen hun partnerrechten (het team)',
          security: [{ bearer: [] }],
          params: idParamSchema,
          response: { 200: teamCompanySchema, ...errorResponses },
        },
      },
      async (req) => service.setState(await req.caller(), req.params.id, 'suspended'),
    );
    app.post(
      apiPaths.teamRestore.pattern,
      {
        schema: {
          tags: ['team'],
          summary: 'Geschorst bedrijf weer actief maken (het team)',
          security: [{ bearer: [] }],
          params: idParamSchema,
          response: { 200: teamCompanySchema, ...errorResponses },
        },
      },
      async (req) => service.setState(await req.caller(), req.params.id, 'active'),
    );
    app.get(
      apiPaths.teamMembers.pattern,
      {
        schema: {
          tags: ['team'],
          summary: 'Het team: ADMIN_EMAILS en wie het team de rol gaf (het team)',
          security: [{ bearer: [] }],
          response: { 200: teamMembersSchema, ...errorResponses },
        },
      },
      async (req) => service.teamMembers(await req.caller()),
    );
    app.post(
      apiPaths.teamMembers.pattern,
      {
        schema: {
          tags: ['team'],
          summary: 'Iemand (een e-mailadres) aan het team toevoegen (het team)',
          description: 'De rechten gelden zodra de houder het adres heeft bevestigd.',
          security: [{ bearer: [] }],
          body: grantTeamSchema,
          response: { 201: teamMembersSchema, ...errorResponses },
        },
      },
      async (req, reply) =>
        reply.status(201).send(await service.grantTeam(await req.caller(), req.body.email)),
    );
    app.delete(
      apiPaths.teamMember.pattern,
      {
        config: { logSecrets: { params: ['email'] } },
        schema: {
          tags: ['team'],
          summary: 'Iemand uit het team halen (het team; niet de adressen uit ADMIN_EMAILS)',
          security: [{ bearer: [] }],
          params: z.object({ email: z.string().max(254) }),
          response: { 204: z.null(), ...errorResponses },
        },
      },
      async (req, reply) => {
        await service.revokeTeam(await req.caller(), req.params.email);
        return reply.status(204).send(null);
      },
    );
  };
