import { apiErrorSchema } from '@aandenken/contract';

/** Error responses every route documents. */
export const errorResponses = {
  400: apiErrorSchema,
  401: apiErrorSchema,
  403: apiErrorSchema,
  404: apiErrorSchema,
  409: apiErrorSchema,
  413: apiErrorSchema,
  429: apiErrorSchema,
  // Only when an external identity provider cannot be reached to verify a bearer token.
  503: apiErrorSchema,
} as const;

/** An answer already written as JSON text (see `preSerialized`). */
class PreSerialized {
  readonly json: string;
  constructor(json: string) {
    this.json = json;
  }
  /** Anything else that writes it as JSON gets the same answer. */
  toJSON(): unknown {
    return JSON.parse(this.json);
  }
}

/**
 * For hot reads whose answers the service builds field by field from the contract's types: the answer
 * goes out with `JSON.stringify` instead of a zod pass over every field (measured on the wall's first
 * page: the zod pass was a sixth of the request's CPU). The response schema still documents the route,
 * and the route's tests check that each answer is exactly what the schema would have produced.
 */
export const plainJsonSerializer = () => (data: unknown) =>
  data instanceof PreSerialized ? data.json : JSON.stringify(data);

/**
 * An answer the service has already written as JSON text, typed as what the text holds: routes with
 * `plainJsonSerializer` send the text as it is (the response cache too, through the route's serializer).
 * For reads assembled from JSON kept ready in the database (the wall's memory cards).
 */
export const preSerialized = <T>(json: string): T => new PreSerialized(json) as unknown as T;
