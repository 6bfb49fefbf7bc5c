/**
 * The site's route table. The server answers these paths with the SPA and every other
 * non-API path with the not-found screen and HTTP 404.
 */
export const routes = {
  home: '/',
  example: '/example',
  pricing: '/prijzen',
  partner: '/bedrijf',
  contact: '/contact',
  privacy: '/privacy',
  terms: '/voorwaarden',
  privatePage: '/beslotenpagina',
  createMemorial: '/create-memorial',
  protectMemorial: '/protect-memorial',
  verifyMemorial: '/verify-memorial',
  authCallback: '/auth/callback',
  logoutCallback: '/auth/logout-callback',
  myPages: '/mijn-paginas',
  partnerPortal: '/partner',
  teamReview: '/team/aanvragen',
  companyDirectory: '/uitvaartondernemers',
  account: '/account',
  /** The links in mail about one page: confirming a sign-up, and switching a kind of mail off. */
  mailConfirm: '/meldingen/bevestigen',
  mailUnsubscribe: '/meldingen/afmelden',
  /** The link in the mail to a visitor who left a memory on a public page: confirms the address. */
  visitorMemoryConfirm: '/herinnering/bevestigen',
  memorial: (id: string) => `/memorial/${id}`,
  /** The readable address of a memorial page (its slug); the id address keeps working. */
  memorialBySlug: (slug: string) => `/gedenkpagina/${slug}`,
  memorialManage: (id: string, tab?: string) => `/memorial/${id}/beheer${tab ? `/${tab}` : ''}`,
  memorialCard: (id: string) => `/memorial/${id}/kaart`,
  memorialPresentation: (id: string) => `/memorial/${id}/presentatie`,
  memorialPresentationBuilder: (id: string) => `/memorial/${id}/presentatie/samenstellen`,
  memorialBiographyHelp: (id: string) => `/memorial/${id}/levensverhaal`,
  /** The guestbook's poster and table card to print. */
  memorialGuestbookPoster: (id: string) => `/memorial/${id}/register-poster`,
  /** The guestbook's short link: visitors sign here without an account or access code. */
  guestbook: (token: string) => `/g/${token}`,
  memorialBiographyDraft: (id: string) => `/memorial/${id}/levensverhaal/concept`,
  memorialBook: (id: string) => `/memorial/${id}/boek`,
  invite: (code: string) => `/uitnodiging/${code}`,
  handover: (code: string) => `/overnemen/${code}`,
  companyPage: (slug: string) => `/uitvaartondernemers/${slug}`,
  payment: (memorialId: string) => `/page/payment/${memorialId}`,
} as const;

/** Static paths the SPA answers with HTTP 200. */
export const staticAppPaths: readonly string[] = [
  routes.home,
  routes.example,
  routes.pricing,
  routes.partner,
  routes.contact,
  routes.privacy,
  routes.terms,
  routes.privatePage,
  routes.createMemorial,
  routes.protectMemorial,
  routes.verifyMemorial,
  routes.authCallback,
  routes.logoutCallback,
  routes.myPages,
  routes.partnerPortal,
  routes.teamReview,
  routes.account,
  routes.companyDirectory,
  routes.mailConfirm,
  routes.mailUnsubscribe,
];

/** Parametrised paths the SPA answers with HTTP 200. */
export const dynamicAppPathPatterns: readonly RegExp[] = [
  /^\/memorial\/[0-9a-f-]{36}$/i,
  /^\/gedenkpagina\/[a-z0-9]+(-[a-z0-9]+)*$/,
  /^\/memorial\/[0-9a-f-]{36}\/(beheer(\/[a-z-]{1,30})?|kaart|presentatie|presentatie\/samenstellen|levensverhaal|levensverhaal\/concept|register-poster|boek)$/i,
  /^\/g\/[A-Za-z0-9_-]{22}$/,
  /^\/uitnodiging\/[A-Za-z0-9_-]{16,128}$/,
  /^\/overnemen\/[A-Za-z0-9_-]{16,128}$/,
  /^\/uitvaartondernemers\/[a-z0-9]+(-[a-z0-9]+)*$/,
  /^\/page\/payment\/[0-9a-f-]{36}$/i,
];

export function isAppPath(pathname: string): boolean {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return staticAppPaths.includes(path) || dynamicAppPathPatterns.some((re) => re.test(path));
}

/** Paths on which the footer is hidden. */
export function isFooterHidden(pathname: string): boolean {
  return (
    pathname === routes.privatePage ||
    pathname === routes.pricing ||
    pathname === '/auth-redirect' ||
    /^\/page\/payment\/[^/]+$/.test(pathname) ||
    /^\/memorial\/[^/]+(\/presentatie)?$/.test(pathname) ||
    /^\/gedenkpagina\/[^/]+$/.test(pathname)
  );
}
