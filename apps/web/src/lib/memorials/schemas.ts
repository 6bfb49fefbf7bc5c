/**
 * The contract's schemas the memorial page checks its answers with: a chunk of its own, loaded with the first
 * read the browser makes (memorialSchemas in queries.ts), and by the page's own writes (publishing, an RSVP). A
 * public memorial page's first render uses the server's data, already checked, so zod and these schemas are not
 * part of its first download or first task.
 */
export {
  biographySchema,
  guestTokenSchema,
  mediaListSchema,
  memorialBySlugSchema,
  memorialSchema,
  memorialServiceListSchema,
  rsvpCreatedSchema,
} from '@aandenken/contract';
