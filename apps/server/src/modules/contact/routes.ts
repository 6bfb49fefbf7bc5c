import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  apiPaths,
  contactMessageSchema,
  contactResultSchema,
  type ContactMessage,
} from '@aandenken/contract';
import type { Deps } from '../../lib/deps.ts';
import { errorResponses } from '../../lib/schemas.ts';
import { contactTeamMail } from './mails.ts';
import { contactRepository } from './repository.ts';

function contactService({ db, outbox, config }: Pick<Deps, 'db' | 'outbox' | 'config'>) {
  return {
    /** Stored with its mail to the team in one transaction; the mail goes out after. */
    async send(msg: ContactMessage, log: { warn: (o: object, m: string) => void }) {
      return db.transaction(async (tx) => {
        const id = await contactRepository(tx).insert(msg);
        if (config.ADMIN_EMAILS.length === 0) {
          log.warn({ id }, 'ADMIN_EMAILS is leeg: contactbericht alleen opgeslagen');
        } else {
          await outbox.enqueue(tx, contactTeamMail(msg, config.ADMIN_EMAILS));
        }
        return id;
      });
    },
  };
}

export const contactRoutes =
  (deps: Pick<Deps, 'db' | 'outbox' | 'config'>): FastifyPluginAsync =>
  async (fastify) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const service = contactService(deps);
    app.post(
      apiPaths.contact.pattern,
      {
        config: { allowAnonymous: true, rateLimit: { max: 10, timeWindow: '1 hour' } },
        schema: {
          tags: ['contact'],
          summary: 'Contactbericht versturen',
          body: contactMessageSchema,
          response: { 201: contactResultSchema, ...errorResponses },
        },
      },
      async (req, reply) => reply.status(201).send({ id: await service.send(req.body, req.log) }),
    );
  };
