import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { errorCodes } from '@aandenken/contract';
import { AppError } from './errors.ts';

/**
 * One error handler (house style): every failure becomes `{ code, message }` with the right status,
 * Dutch messages, and never a stack trace. Validation errors name their fields.
 */
export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    if (err instanceof AppError) {
      return reply
        .status(err.statusCode)
        .send({ code: err.code, message: err.message, ...(err.fields ? { fields: err.fields } : {}) });
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const fields: Record<string, string> = {};
      for (const issue of err.validation) {
        const key = issue.instancePath.replace(/^\//, '').replace(/\//g, '.') || '_';
        fields[key] ??= issue.message ?? 'Ongeldige waarde';
      }
      const first = Object.entries(fields)[0];
      return reply.status(400).send({
        code: errorCodes.validation,
        message: first ? `Controleer je invoer: ${first[1]}` : 'Controleer je invoer.',
        fields,
      });
    }
    if (isResponseSerializationError(err)) {
      req.log.error({ err }, 'response did not match its schema');
      return reply
        .status(500)
        .send({ code: errorCodes.internal, message: 'Er ging iets mis. Probeer het later opnieuw.' });
    }
    const status = err.statusCode ?? 500;
    if (status === 413 || err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return reply
        .status(413)
        .send({ code: errorCodes.payloadTooLarge, message: 'Het verzoek is te groot.' });
    }
    if (status === 415 || err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return reply
        .status(415)
        .send({ code: errorCodes.unsupportedMediaType, message: 'Dit type inhoud wordt niet ondersteund.' });
    }
    if (status === 429) {
      return reply.status(429).send({ code: errorCodes.rateLimited, message: err.message });
    }
    if (status >= 400 && status < 500) {
      return reply.status(status).send({
        code: errorCodes.validation,
        message: 'Het verzoek kon niet worden verwerkt. Controleer je invoer.',
      });
    }
    req.log.error({ err }, 'unhandled error');
    return reply
      .status(500)
      .send({ code: errorCodes.internal, message: 'Er ging iets mis. Probeer het later opnieuw.' });
  });
}
