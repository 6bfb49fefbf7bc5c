/** Whether a string is a UUID, as every id in the database is; checked before a query so that bad input is a 404, not a database error. */
export const isUuid = (s: string) =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s);
