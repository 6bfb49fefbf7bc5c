/**
 * The example memorials created on first start (server: modules/examples, off with SEED_EXAMPLES=false).
 * Their ids are fixed so the landing page's sample cards and /example link to the real pages.
 */
export const exampleMemorialIds = {
  johanna: '6a0c7a52-5d3e-4c1b-9a57-0e3f4b8d2a01',
  pieter: '6a0c7a52-5d3e-4c1b-9a57-0e3f4b8d2a02',
  sanne: '6a0c7a52-5d3e-4c1b-9a57-0e3f4b8d2a03',
} as const;
export type ExampleMemorialKey = keyof typeof exampleMemorialIds;

/** The user that owns the example memorials (a row in `users`, never able to sign in). */
export const EXAMPLES_SYSTEM_USER_ID = 'system:examples';
