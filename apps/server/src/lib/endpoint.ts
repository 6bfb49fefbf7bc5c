import type { Endpoint } from '@aandenken/contract';
import { errorResponses } from './schemas.ts';

/** What the OpenAPI document says of a route beside its schemas (Dutch, for the readers of /core/docs). */
export interface RouteDoc {
  tags: string[];
  security?: Array<Record<string, string[]>>;
  summary: string;
  description?: string;
}

/**
 * A route's method, path and schemas from the contract's description of its endpoint (packages/contract
 * endpoint.ts), for `app.route({ ...endpointRoute(e, doc), handler })`: the request's parameters and body are
 * validated and typed, and the answer is serialised, by the same schemas the web's client is typed from.
 */
export function endpointRoute<E extends Endpoint>(e: E, doc: RouteDoc) {
  const schema = {
    ...doc,
    params: e.params as E['params'],
    body: e.body as E['body'],
    response: { 200: e.response as E['response'], ...errorResponses },
  };
  // An endpoint without parameters or body leaves the key out (Fastify and the OpenAPI document look for it).
  const present = Object.fromEntries(Object.entries(schema).filter(([, v]) => v !== undefined));
  return { method: e.method, url: e.path.pattern, schema: present as typeof schema };
}
