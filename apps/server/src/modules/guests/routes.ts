import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  accessCodeMailSchema,
  accessCodeMailedSchema,
  accessCodeRefusedSchema,
  apiPaths,
  guestTokenConsumeSchema,
  guestTokenCreateSchema,
  guestTokenSchema,
  idParamSchema,
} from '@aandenken/contract';
import { errorResponses } from '../../lib/schemas.ts';
import type { Deps } from '../../lib/deps.ts';
import { accessMailService } from './access-mail.ts';
import { accessCodeCheck } from './code-check.ts';
import { guestService } from './service.ts';

const tags = ['guest access'];

export const guestRoutes =
  (deps: Pick<Deps, 'db' | 'config' | 'outbox'>): FastifyPluginAsync =>
  async (fastify) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const service = guestService(deps);
    const accessMail = accessMailService(deps);
    const codeCheck = accessCodeCheck({ ...deps, tokens: service.tokens });

    app.post(
      apiPaths.guestToken.pattern,
      {
        config: {
          allowAnonymous: true,
          rateLimit: { max: 60, timeWindow: '1 minute' },
        },
        schema: {
          tags,
          summary: 'Gasttoken met toegangscode',
          description:
            'Een geldige 8-cijferige code (spaties, streepjes en punten tellen niet mee: `9330 7666` is `93307666`) geeft een token (12 uur) voor die ene pagina met de rol gast. Een onjuiste code: 404 ACCESS_CODE_INVALID (ook voor een pagina die alleen op uitnodiging is). Na 5 onjuiste codes per minuut of 20 per uur vanaf één adres: 429 RATE_LIMITED, ook voor een juiste code. ' +
            'Zijn er in het afgelopen uur meer onjuiste codes ingevuld dan het budget (1000, vanaf alle adressen samen), dan antwoordt de server 429 CHALLENGE_REQUIRED met een ALTCHA-uitdaging (`challenge`); stuur de code opnieuw met de oplossing in `pow` (eenmalig bruikbaar, 10 minuten geldig). ' +
            'Met `memorialId` (links uit mails en van kaartjes) wordt de code alleen met die pagina vergeleken, zonder uitdaging: na 10 onjuiste codes in 15 minuten gaat die pagina 15, 30, 60 ... minuten op slot (429 RATE_LIMITED).',
          body: guestTokenCreateSchema,
          response: { 200: guestTokenSchema, ...errorResponses, 429: accessCodeRefusedSchema },
        },
      },
      async (req) => codeCheck.tokenForAccessCode(req.body, req.ip, req.log),
    );

    app.post(
      apiPaths.guestTokenConsume.pattern,
      {
        config: { allowAnonymous: true, rateLimit: { max: 30, timeWindow: '1 minute' } },
        schema: {
          tags,
          summary: 'Eenmalige link inwisselen voor een gasttoken',
          description:
            'De link uit een uitnodigings- of toegangsmail werkt één keer en tot hij verloopt; die uit een uitnodiging niet meer zodra die is aangenomen of ingetrokken. Anders 404 LINK_INVALID. Het gasttoken van een link vervalt als de uitnodiging wordt ingetrokken of het lid wordt verwijderd.',
          body: guestTokenConsumeSchema,
          response: { 200: guestTokenSchema, ...errorResponses },
        },
      },
      async (req) => service.tokenForLink(req.body.token, req.log),
    );

    app.post(
      apiPaths.accessCodeMail.pattern,
      {
        config: { rateLimit: { max: 50, timeWindow: '1 hour' } },
        schema: {
          tags,
          security: [{ bearer: [] }],
          summary: 'Toegangscode mailen (eigenaar, redacteur)',
          description:
            'Stuurt de toegangscode en een eenmalige link (14 dagen geldig) naar iemand die de besloten pagina mag zien. Alleen voor een gepubliceerde pagina (anders 409 MEMORIAL_NOT_ACTIVE).',
          params: idParamSchema,
          body: accessCodeMailSchema,
          response: { 200: accessCodeMailedSchema, ...errorResponses },
        },
      },
      async (req) => accessMail.send(await req.caller(), req.params.id, req.body),
    );
  };
