import type * as z from 'zod/mini';
import type { ApiPath } from './api-paths.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
type Schema = z.ZodMiniType;

/**
 * One API endpoint, described once: its method, its path (an entry of `apiPaths`), the schemas of its path
 * parameters and request body, and of its success answer. The server registers its route from it
 * (apps/server/src/lib/endpoint.ts: validation, the answer's serialisation, the OpenAPI document) and the web
 * calls it through `callEndpoint` (apps/web/src/lib/api-endpoint.ts), so both are typed from the same text.
 */
export interface Endpoint<
  M extends HttpMethod = HttpMethod,
  P extends string = string,
  Params extends Schema | undefined = Schema | undefined,
  Body extends Schema | undefined = Schema | undefined,
  Response extends Schema = Schema,
> {
  readonly method: M;
  readonly path: ApiPath<P>;
  readonly params: Params;
  readonly body: Body;
  readonly response: Response;
}

export function endpoint<
  const M extends HttpMethod,
  const P extends string,
  Response extends Schema,
  Params extends Schema | undefined = undefined,
  Body extends Schema | undefined = undefined,
>(e: {
  method: M;
  path: ApiPath<P>;
  params?: Params;
  body?: Body;
  response: Response;
}): Endpoint<M, P, Params, Body, Response> {
  return { params: undefined as Params, body: undefined as Body, ...e };
}

/** What a caller sends: the path's parameters and the body, as the schemas accept them (defaults optional). */
export type EndpointInput<E extends Endpoint> = (E['params'] extends Schema
  ? { params: z.input<E['params']> }
  : { params?: undefined }) &
  (E['body'] extends Schema ? { body: z.input<E['body']> } : { body?: undefined });

/** The success answer, as its schema gives it. */
export type EndpointResponse<E extends Endpoint> = z.output<E['response']>;

/** The concrete path (below `apiPrefix`): each `:name` of the pattern replaced by its encoded parameter. */
export function endpointPath(e: Endpoint, params: Record<string, unknown> = {}): string {
  return e.path.pattern.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) =>
    encodeURIComponent(String(params[name] ?? '')),
  );
}
