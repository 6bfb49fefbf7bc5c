import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  apiPaths,
  contactMessageSchema,
  contactResultSchema,
  contactSubjectLabels,
  type ContactMessage,
} from '@aandenken/contract';
import type { Deps } from '../../lib/deps.ts';
import { errorResponses } from '../../lib/schemas.ts';
import { contactRepository } from './repository.ts';

function contactService({ db, mailer, config }: Pick<Deps, 'db' | 'mailer' | 'config'>) {
  const repo = contactRepository(db);
  return {
    /** Stored first, then mailed to the team: a mail failure never loses the message. */
    async send(
      msg: ContactMessage,
      log: { warn: (o: object, m: string) => void; error: (o: object, m: string) => void },
    ) {
      const id = await repo.insert(msg);
      if (config.ADMIN_EMAILS.length === 0) {
        log.warn({ id }, 'ADMIN_EMAILS is leeg: contactbericht alleen opgeslagen');
      } else {
        await mailer
          .send({
            to: config.ADMIN_EMAILS,
            replyTo: msg.email,
            subject: `Contactformulier: ${contactSubjectLabels[msg.subject]}`,
            text: `Van: ${msg.name} <${msg.email}>\nOnderwerp: ${contactSubjectLabels[msg.subject]}\n\n${msg.message}\n`,
          })
          .catch((err: unknown) => log.error({ err, id }, 'contact mail failed'));
      }
      return id;
    },
  };
}

export const contactRoutes =
  (deps: Pick<Deps, 'db' | 'mailer' | 'config'>): FastifyPluginAsync =>
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
