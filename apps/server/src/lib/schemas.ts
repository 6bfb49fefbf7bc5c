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
