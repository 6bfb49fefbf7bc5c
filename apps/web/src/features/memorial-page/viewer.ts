/** Who is looking, as far as the page needs to know. */
export interface Viewer {
  /** Owner or editor: sees 'Beheren'. */
  canManage: boolean;
  /** Members from contributor up, and guests (members or with a guest token). */
  canAddMemory: boolean;
  /** Anyone who may see a page that is not archived (the server refuses candles on an archived page). */
  canLightCandle: boolean;
  /** Members and guests; not anonymous visitors of a public page. */
  canLove: boolean;
  /** Visiting with the access code's guest token: must give a name with a memory. */
  isGuestVisit: boolean;
  /** Name to prefill (the account's, or the invitation's). */
  defaultName: string;
}
