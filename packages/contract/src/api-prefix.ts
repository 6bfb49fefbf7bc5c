/**
 * Where the product API lives on the site's origin; every path in `apiPaths` is relative to it. Its own
 * module, so the web's entry (the API client) does not take the whole path table along.
 */
export const apiPrefix = '/core';
