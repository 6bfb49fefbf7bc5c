import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  apiErrorSchema,
  apiPaths,
  GUESTBOOK_RATE_LIMIT,
  guestbookEntryParamsSchema,
  guestbookEntrySchema,
  guestbookEntryUpdateSchema,
  guestbookPublicSchema,
  guestbookSchema,
  guestbookSignedSchema,
  guestbookSignSchema,
  guestbookStateSchema,
  guestbookTokenParamsSchema,
  idParamSchema,
} from '@aandenken/contract';
import type { Deps } from '../../lib/deps.ts';
import { errorResponses } from '../../lib/schemas.ts';
import { sse } from '../../lib/sse.ts';
import { guestbookLive } from './live.ts';
import { guestbookService } from './service.ts';

const tags = ['guestbook'];
const optional: Record<string, string[]>[] = [{ bearer: [] }, {}];
const bearer: Record<string, string[]>[] = [{ bearer: [] }];
/**
 * A comment line now and then keeps proxies and the socket's idle timeout (CONNECTION_TIMEOUT_MS, which
 * stays on) from ending a quiet stream.
 */
const HEARTBEAT_MS = 20_000;

/** The digital guestbook (docs/funeral-day.md, "Het condoleanceregister"). */
export const guestbookRoutes =
  (deps: Pick<Deps, 'db' | 'clock' | 'config' | 'liveStreams'>): FastifyPluginAsync =>
  async (fastify) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const service = guestbookService(deps);
    const live = guestbookLive(deps.db, fastify.log);
    // Open streams would keep the server from closing: end them first.
    fastify.addHook('preClose', async () => live.close());

    app.get(
      apiPaths.guestbook.pattern,
      {
        schema: {
          tags,
          security: bearer,
          summary: 'Het condoleanceregister van een pagina (eigenaar, redacteur)',
          description: 'Met de korte link, de QR-code (SVG) en alle inschrijvingen, ook de verborgen.',
          params: idParamSchema,
          response: { 200: guestbookSchema, ...errorResponses },
        },
      },
      async (req) => service.get(await req.caller(), req.params.id),
    );

    app.put(
      apiPaths.guestbook.pattern,
      {
        schema: {
          tags,
          security: bearer,
          summary: 'Condoleanceregister openen of sluiten (eigenaar, redacteur)',
          description:
            'Openen kan alleen met Premium (of in de proefperiode): anders 403 PLAN_FEATURE. Sluiten kan altijd.',
          params: idParamSchema,
          body: guestbookStateSchema,
          response: { 200: guestbookSchema, ...errorResponses },
        },
      },
      async (req) => service.setOpen(await req.caller(), req.params.id, req.body.open),
    );

    app.put(
      apiPaths.guestbookEntry.pattern,
      {
        schema: {
          tags,
          security: bearer,
          summary: 'Een inschrijving verbergen of weer tonen (eigenaar, redacteur)',
          params: guestbookEntryParamsSchema,
          body: guestbookEntryUpdateSchema,
          response: { 200: guestbookEntrySchema, ...errorResponses },
        },
      },
      async (req) =>
        service.setHidden(await req.caller(), req.params.id, req.params.entryId, req.body.hidden),
    );

    app.get(
      apiPaths.guestbookCsv.pattern,
      {
        schema: {
          tags,
          security: bearer,
          summary: 'Het condoleanceregister als CSV (eigenaar, redacteur)',
          description: 'UTF-8 met BOM, puntkomma’s, CRLF. Verborgen inschrijvingen staan er niet in.',
          params: idParamSchema,
          response: { 200: z.string(), ...errorResponses },
        },
      },
      async (req, reply) => {
        const file = await service.csv(await req.caller(), req.params.id);
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${file.filename}"`)
          .header('cache-control', 'no-store')
          .send(file.body);
      },
    );

    app.get(
      apiPaths.guestbookPdf.pattern,
      {
        schema: {
          tags,
          security: bearer,
          summary: 'Het condoleanceregister als PDF (eigenaar, redacteur)',
          description: 'A4. Verborgen inschrijvingen staan er niet in.',
          params: idParamSchema,
          response: {
            200: {
              description: 'Het register',
              content: { 'application/pdf': { schema: z.string().meta({ format: 'binary' }) } },
            },
            400: apiErrorSchema,
            401: apiErrorSchema,
            403: apiErrorSchema,
            404: apiErrorSchema,
            429: apiErrorSchema,
          },
        },
      },
      async (req, reply) => {
        const file = await service.pdf(await req.caller(), req.params.id);
        return reply
          .header('content-type', 'application/pdf')
          .header('content-disposition', `attachment; filename="${file.filename}"`)
          .header('cache-control', 'no-store')
          .send(Buffer.from(file.body) as unknown as string);
      },
    );

    app.get(
      apiPaths.guestbookStream.pattern,
      {
        schema: {
          tags,
          security: bearer,
          summary: 'Nieuwe inschrijvingen live (server-sent events; eigenaar, redacteur)',
          description:
            'text/event-stream: eerst `event: ready`, dan `event: entry` met de inschrijving (JSON) bij elke nieuwe of gewijzigde inschrijving, uit elk proces (PostgreSQL NOTIFY). Weer `event: ready` na een onderbreking van de meldingen: lees de lijst opnieuw.',
          params: idParamSchema,
          response: { 200: z.string(), ...errorResponses },
        },
      },
      async (req, reply) => {
        const memorialId = req.params.id;
        const caller = await req.caller();
        await service.requireManager(caller, memorialId);
        const slot = deps.liveStreams.admit(caller, req.ip, reply);
        const raw = reply.raw;
        let started = false;
        let ended = false;
        let unsubscribe = () => {};
        const send = (chunk: string) => {
          if (started && !ended) raw.write(chunk);
        };
        const heartbeat = setInterval(
          () => send(sse.heartbeat),
          Math.min(HEARTBEAT_MS, Math.floor(deps.config.CONNECTION_TIMEOUT_MS / 2)),
        );
        heartbeat.unref();
        const end = () => {
          if (ended) return;
          ended = true;
          clearInterval(heartbeat);
          unsubscribe();
          slot.release();
          if (started) raw.end();
        };
        try {
          unsubscribe = await live.subscribe(memorialId, {
            onEntry: (entryId) => {
              service
                .entry(memorialId, entryId)
                .then((e) => e && send(sse.event('entry', e)))
                .catch((err: unknown) => req.log.warn({ err }, 'guestbook: could not read an entry'));
            },
            // The browser reads the list again on `ready`: what was notified while no one listened shows up.
            onResync: () => send(sse.event('ready', {})),
            onLost: end,
          });
          // Ends within seconds of the caller losing access (removed, role withdrawn, company suspended,
          // page deleted) and when the token expires: the same check as above, the token verified again.
          await slot.watch({
            kind: 'guestbook',
            memorialId,
            check: async () => service.requireManager(await req.callerAgain(), memorialId),
            end,
          });
        } catch (err) {
          end();
          throw err;
        }
        reply.hijack();
        started = true;
        sse.open(raw, { connection: 'keep-alive' });
        // The response closes when the browser goes (or the connection drops).
        raw.on('close', end);
        // The browser may have gone, or the notifications been lost, while the stream was being set up.
        if (ended || req.raw.socket?.destroyed) {
          ended = false;
          end();
          return;
        }
        send(sse.retry(3000) + sse.event('ready', {}));
      },
    );

    app.get(
      apiPaths.guestbookPublic.pattern,
      {
        config: { allowAnonymous: true, logSecrets: { params: ['token'] } },
        schema: {
          tags,
          security: optional,
          summary: 'Het condoleanceregister achter een korte link',
          description: 'Zonder account en zonder toegangscode: de korte link is de sleutel.',
          params: guestbookTokenParamsSchema,
          response: { 200: guestbookPublicSchema, ...errorResponses },
        },
      },
      async (req, reply) => {
        reply.header('cache-control', 'no-store');
        return service.publicInfo(req.params.token);
      },
    );

    app.post(
      apiPaths.guestbookSign.pattern,
      {
        config: {
          allowAnonymous: true,
          logSecrets: { params: ['token'] },
          rateLimit: {
            max: GUESTBOOK_RATE_LIMIT.max,
            timeWindow: `${GUESTBOOK_RATE_LIMIT.windowMinutes} minutes`,
          },
        },
        schema: {
          tags,
          security: optional,
          summary: 'Het condoleanceregister tekenen',
          description: `Zonder account en zonder toegangscode, zolang de familie het open heeft (anders 409 GUESTBOOK_CLOSED). Maximaal ${GUESTBOOK_RATE_LIMIT.max} per ${GUESTBOOK_RATE_LIMIT.windowMinutes} minuten per adres (429).`,
          params: guestbookTokenParamsSchema,
          body: guestbookSignSchema,
          response: { 201: guestbookSignedSchema, ...errorResponses },
        },
      },
      async (req, reply) => reply.status(201).send(await service.sign(req.params.token, req.body)),
    );
  };
