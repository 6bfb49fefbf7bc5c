type ParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? [Name, ...ParamNames<`/${Rest}`>]
  : P extends `${string}:${infer Name}`
    ? [Name]
    : [];
type AsStrings<T extends string[]> = { [K in keyof T]: string };

/**
 * One API path: `pattern` is what the server registers (Fastify's `:param` style), calling it builds
 * the concrete path for a client, one (URI-encoded) value per parameter in the pattern's order.
 */
export type ApiPath<P extends string> = ((...values: AsStrings<ParamNames<P>>) => string) & {
  readonly pattern: P;
};

function apiPath<const P extends string>(pattern: P): ApiPath<P> {
  const build = (...values: string[]) => {
    let i = 0;
    return pattern.replace(/:[A-Za-z0-9_]+/g, () => encodeURIComponent(values[i++] ?? ''));
  };
  return Object.assign(build, { pattern }) as ApiPath<P>;
}

/**
 * The API's path table, below `apiPrefix`: the server registers its routes with `.pattern`, the web
 * builds its requests by calling the entry, so renaming a route breaks the build instead of a screen.
 * A server test checks that every route the app registers is here, and every entry is registered.
 */
export const apiPaths = {
  openApi: apiPath('/openapi.json'),

  companyRequest: apiPath('/companies/request'),
  company: apiPath('/companies/:id'),
  accountRoles: apiPath('/account/roles'),
  signInMethods: apiPath('/account/sign-in-methods'),
  teamApplications: apiPath('/team/applications'),
  teamApprove: apiPath('/team/applications/:id/approve'),
  teamReject: apiPath('/team/applications/:id/reject'),
  teamCompanies: apiPath('/team/companies'),
  teamSuspend: apiPath('/team/companies/:id/suspend'),
  teamRestore: apiPath('/team/companies/:id/restore'),
  teamMembers: apiPath('/team/members'),
  teamMember: apiPath('/team/members/:email'),
  companyUsers: apiPath('/companies/:id/users'),
  companyUser: apiPath('/companies/:id/users/:userId'),
  companyInvitations: apiPath('/companies/:id/invitations'),
  companyInvitation: apiPath('/companies/:id/invitations/:invitationId'),
  companyPages: apiPath('/companies/:id/pages'),
  companyPageResend: apiPath('/companies/:id/pages/:memorialId/resend'),
  handover: apiPath('/handover/:code'),
  handoverAccept: apiPath('/handover/:code/accept'),
  handoverMembers: apiPath('/handover/:code/members'),
  memorialCare: apiPath('/memorial/:id/care'),
  companyProfile: apiPath('/companies/:id/profile'),
  companyLogo: apiPath('/companies/:id/logo'),
  publicCompany: apiPath('/public/companies/:slug'),
  publicCompanyLogo: apiPath('/public/company-logos/:logoId/:variant'),
  companyDirectory: apiPath('/public/companies'),
  contact: apiPath('/contact'),

  memorials: apiPath('/memorial'),
  memorial: apiPath('/memorial/:id'),
  memorialBySlug: apiPath('/memorial/by-slug/:slug'),
  memorialConcept: apiPath('/memorial/concept'),
  memorialQuery: apiPath('/memorial/query'),
  memorialPartOf: apiPath('/memorial/query/partof'),
  biography: apiPath('/memorial/biography'),
  biographyOf: apiPath('/memorial/biography/:memorialId'),
  accessCodeRegenerate: apiPath('/memorial/:id/access-code/regenerate'),
  accessCodeMail: apiPath('/memorial/:id/access-code/mail'),
  audit: apiPath('/memorial/:memorialId/audit'),

  membersQuery: apiPath('/memorial/users/query'),
  memberSelfRole: apiPath('/memorial/users/self/role/:memorialId'),
  memberRole: apiPath('/memorial/users/role'),
  member: apiPath('/memorial/users/:id'),

  guestToken: apiPath('/guest/token'),
  guestTokenConsume: apiPath('/guest/token-consume'),

  invitesQuery: apiPath('/guest-invite/query'),
  inviteByCode: apiPath('/guest-invite/invite-code/:inviteCode'),
  inviteAccept: apiPath('/guest-invite/accept/:code'),
  inviteResend: apiPath('/guest-invite/:id/resend'),
  inviteCreate: apiPath('/guest-invite/:memorialId'),
  invite: apiPath('/guest-invite/:id'),

  galleryUpload: apiPath('/memorial-media'),
  galleryItem: apiPath('/memorial-media/:id'),
  gallery: apiPath('/memorial-media/all/:id'),
  galleryQuery: apiPath('/memorial-media/query'),
  galleryReorder: apiPath('/memorial-media/reorder'),
  memoryMediaUpload: apiPath('/memory/medias'),
  memoryMedia: apiPath('/memory/medias/:id'),
  mediaBytes: apiPath('/media/:mediaId/:variant'),

  memories: apiPath('/memories'),
  memory: apiPath('/memories/:id'),
  memoryConcept: apiPath('/memories/concept'),
  memoryPublish: apiPath('/memories/publish'),
  memoryStatus: apiPath('/memories/status'),
  memoryPrivacy: apiPath('/memories/privacy'),
  memoryWall: apiPath('/memories/query-memorial'),
  memoryManageQuery: apiPath('/memories/query-manage'),
  memoryOwnQuery: apiPath('/memories/query-own'),
  memoryLove: apiPath('/memories/:id/love'),
  /** A visitor of a public page leaves a memory, held until the address is confirmed and the family approves. */
  visitorMemory: apiPath('/memorial/:memorialId/visitor-memories'),

  candleCreate: apiPath('/candles/:memorialId'),
  candle: apiPath('/candles/:id'),
  candlesQuery: apiPath('/candles/query'),

  funeralServices: apiPath('/memorial/:id/services'),
  funeralService: apiPath('/memorial/:id/services/:serviceId'),
  funeralServiceCalendar: apiPath('/memorial/:id/services/:serviceId/calendar.ics'),
  serviceRsvp: apiPath('/memorial/:id/services/:serviceId/rsvp'),
  serviceRsvps: apiPath('/memorial/:id/services/:serviceId/rsvps'),
  serviceRsvpsCsv: apiPath('/memorial/:id/services/:serviceId/rsvps.csv'),
  guestbook: apiPath('/memorial/:id/guestbook'),
  guestbookEntry: apiPath('/memorial/:id/guestbook/entries/:entryId'),
  guestbookCsv: apiPath('/memorial/:id/guestbook/entries.csv'),
  guestbookPdf: apiPath('/memorial/:id/guestbook/entries.pdf'),
  guestbookStream: apiPath('/memorial/:id/guestbook/stream'),
  guestbookPublic: apiPath('/guestbook/:token'),
  guestbookSign: apiPath('/guestbook/:token/entries'),

  candleMoments: apiPath('/memorial/:id/candle-moments'),
  candleMoment: apiPath('/memorial/:id/candle-moments/:momentId'),
  candleMomentLive: apiPath('/memorial/:id/candle-moments/live'),
  futureMessages: apiPath('/memorial/:id/future-messages'),
  futureMessage: apiPath('/memorial/:id/future-messages/:messageId'),
  memorialSubscriptions: apiPath('/memorial/:id/subscriptions'),
  memorialSubscription: apiPath('/memorial/:id/subscriptions/:subscriptionId'),
  subscriptionConfirm: apiPath('/subscriptions/confirm'),
  mailUnsubscribe: apiPath('/mail/unsubscribe'),

  memorialExport: apiPath('/memorial/:id/export'),
  personalExport: apiPath('/account/export'),
  exportDownload: apiPath('/export/:exportId/download'),
  accountDelete: apiPath('/account/delete'),
  memorialDelete: apiPath('/memorial/:id/delete'),
  memorialRestore: apiPath('/memorial/:id/restore'),
  memorialsDeleted: apiPath('/memorial/deleted'),

  takedownReport: apiPath('/takedown/report'),
  takedownHide: apiPath('/takedown/:itemType/:itemId/hide'),
  takedownUnhide: apiPath('/takedown/:itemType/:itemId/unhide'),
  memorialTakedowns: apiPath('/memorial/:id/takedowns'),
  teamTakedowns: apiPath('/team/takedowns'),
  teamTakedownHide: apiPath('/team/takedowns/:itemType/:itemId/hide'),
  teamTakedownUnhide: apiPath('/team/takedowns/:itemType/:itemId/unhide'),

  successor: apiPath('/memorial/:id/successor'),
  teamHandOver: apiPath('/team/memorials/:id/hand-over'),

  memorialPlan: apiPath('/memorial/:id/plan'),
  payments: apiPath('/payments'),
  payment: apiPath('/payments/:id'),
  paymentWebhook: apiPath('/payments/webhook'),
  teamMemorialPlan: apiPath('/team/memorials/:id/plan'),
  invoicePdf: apiPath('/invoices/:id/pdf'),
  teamPaymentRefund: apiPath('/team/payments/:id/refund'),
  teamMemorials: apiPath('/team/memorials'),
  companyBilling: apiPath('/companies/:id/billing'),
  companyPayments: apiPath('/companies/:id/payments'),
  biographyTemplate: apiPath('/memorial/:id/biography-template'),
  biographyAnswer: apiPath('/memorial/:id/biography-template/:questionKey'),
  biographyGenerate: apiPath('/memorial/:id/biography-template/generate'),
  biographyAiDraft: apiPath('/memorial/:id/biography-draft'),
  printedBook: apiPath('/memorial/:id/printed-book'),
  printedBookFile: apiPath('/printed-book/:bookId/file'),
  presentation: apiPath('/memorial/:id/presentation'),
  presentationMusic: apiPath('/memorial/:id/presentation/music'),
  presentationSettings: apiPath('/memorial/:id/presentation/settings'),
  presentationVideo: apiPath('/memorial/:id/presentation/video'),
  presentationMusicFile: apiPath('/presentation-music/:fileId'),
  presentationVideoFile: apiPath('/presentation-video/:fileId'),
} as const;
