import { useRoutes, type RouteObject } from 'react-router';
import { routes } from '@aandenken/contract';
import { RootLayout } from '../components/layout/root-layout.tsx';
import { RouteErrorBoundary } from '../components/layout/route-error.tsx';
import { lazyPage } from './lazy-page.ts';

// Every page is its own chunk: the entry of '/' carries only the shell.
const LandingPage = lazyPage(() => import('../features/marketing/landing-page.tsx'));
const PricingPage = lazyPage(() => import('../features/marketing/pricing-page.tsx'));
const ExamplePage = lazyPage(() => import('../features/marketing/example-page.tsx'));
const PartnerPage = lazyPage(() => import('../features/partner/partner-page.tsx'));
const ContactPage = lazyPage(() => import('../features/contact/contact-page.tsx'));
const PrivacyPage = lazyPage(() => import('../features/marketing/privacy-page.tsx'));
const TermsPage = lazyPage(() => import('../features/marketing/terms-page.tsx'));
const PrivatePage = lazyPage(() => import('../features/private-page/private-page.tsx'));
const NotFoundPage = lazyPage(() => import('../features/not-found/not-found-page.tsx'));
const AuthCallbackPage = lazyPage(() => import('../features/auth/auth-callback-page.tsx'));
const LogoutCallbackPage = lazyPage(() => import('../features/auth/logout-callback-page.tsx'));
const CreateMemorialPage = lazyPage(() => import('../features/create-memorial/create-memorial-page.tsx'));
const ProtectMemorialPage = lazyPage(() => import('../features/create-memorial/protect-memorial-page.tsx'));
const VerifyMemorialPage = lazyPage(() => import('../features/create-memorial/verify-memorial-page.tsx'));
const MyPagesPage = lazyPage(() => import('../features/my-pages/my-pages-page.tsx'));
const AccountPage = lazyPage(() => import('../features/account/account-page.tsx'));
const MemorialPage = lazyPage(() => import('../features/memorial-page/memorial-page.tsx'));
const ManageMemorialPage = lazyPage(() => import('../features/manage-memorial/manage-page.tsx'));
const MemorialCardPage = lazyPage(() => import('../features/manage-memorial/card-page.tsx'));
// The guestbook: its poster for the family, the signing page behind the short link.
const GuestbookPosterPage = lazyPage(() => import('../features/manage-memorial/poster-page.tsx'));
const GuestbookSignPage = lazyPage(() => import('../features/guestbook/sign-page.tsx'));
// Keepsakes: the presentation and the biography questions, each its own chunk.
const PresentationPage = lazyPage(() => import('../features/keepsakes/presentation/presentation-page.tsx'));
const BiographyHelpPage = lazyPage(
  () => import('../features/keepsakes/biography-help/biography-help-page.tsx'),
);
const AiDraftPage = lazyPage(() => import('../features/keepsakes/ai-draft/ai-draft-page.tsx'));
const PrintedBookPage = lazyPage(() => import('../features/keepsakes/printed-book/printed-book-page.tsx'));
const PresentationBuilderPage = lazyPage(
  () => import('../features/keepsakes/presentation-builder/presentation-builder-page.tsx'),
);
const InvitePage = lazyPage(() => import('../features/invite/invite-page.tsx'));
const HandoverPage = lazyPage(() => import('../features/handover/handover-page.tsx'));
const PaymentPage = lazyPage(() => import('../features/plans/payment-page.tsx'));
const MailLinksPage = lazyPage(() => import('../features/mail-links/mail-links-page.tsx'));
// The team's review screen and the partner page share one chunk (the entry is at its budget).
const TeamPages = lazyPage(() => import('./team-pages.tsx'));
// The directory 'Vind een uitvaartondernemer' and the public company pages (server-rendered).
const CompaniesPages = lazyPage(() => import('../features/companies/companies-pages.tsx'));

/**
 * The central route map (paths from the contract's `routes`).
 * The identity feature adds its routes (create flow, auth callbacks, /mijn-paginas) to `pageRoutes`.
 */
export const pageRoutes: RouteObject[] = [
  { path: routes.home, element: <LandingPage /> },
  { path: routes.example, element: <ExamplePage /> },
  { path: routes.pricing, element: <PricingPage /> },
  { path: routes.partner, element: <PartnerPage /> },
  { path: routes.contact, element: <ContactPage /> },
  { path: routes.privacy, element: <PrivacyPage /> },
  { path: routes.terms, element: <TermsPage /> },
  { path: routes.privatePage, element: <PrivatePage /> },
  { path: routes.authCallback, element: <AuthCallbackPage /> },
  { path: routes.logoutCallback, element: <LogoutCallbackPage /> },
  { path: routes.createMemorial, element: <CreateMemorialPage /> },
  { path: routes.protectMemorial, element: <ProtectMemorialPage /> },
  { path: routes.verifyMemorial, element: <VerifyMemorialPage /> },
  { path: routes.myPages, element: <MyPagesPage /> },
  { path: routes.account, element: <AccountPage /> },
  { path: routes.memorial(':id'), element: <MemorialPage /> },
  { path: routes.memorialBySlug(':slug'), element: <MemorialPage /> },
  { path: routes.memorialManage(':id'), element: <ManageMemorialPage /> },
  { path: routes.memorialManage(':id', ':tab'), element: <ManageMemorialPage /> },
  { path: routes.memorialCard(':id'), element: <MemorialCardPage /> },
  { path: routes.memorialGuestbookPoster(':id'), element: <GuestbookPosterPage /> },
  { path: routes.guestbook(':token'), element: <GuestbookSignPage /> },
  { path: routes.memorialPresentation(':id'), element: <PresentationPage /> },
  { path: routes.memorialPresentationBuilder(':id'), element: <PresentationBuilderPage /> },
  { path: routes.memorialBiographyHelp(':id'), element: <BiographyHelpPage /> },
  { path: routes.memorialBiographyDraft(':id'), element: <AiDraftPage /> },
  { path: routes.memorialBook(':id'), element: <PrintedBookPage /> },
  { path: routes.invite(':inviteCode'), element: <InvitePage /> },
  { path: routes.handover(':code'), element: <HandoverPage /> },
  { path: routes.payment(':id'), element: <PaymentPage /> },
  { path: routes.mailConfirm, element: <MailLinksPage /> },
  { path: routes.mailUnsubscribe, element: <MailLinksPage /> },
  { path: routes.partnerPortal, element: <TeamPages /> },
  { path: routes.teamReview, element: <TeamPages /> },
  { path: routes.companyDirectory, element: <CompaniesPages /> },
  { path: routes.companyPage(':slug'), element: <CompaniesPages /> },
];

export const appRoutes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [...pageRoutes, { path: '*', element: <NotFoundPage /> }],
  },
];

/**
 * The app's routes, for <BrowserRouter> in the browser and <StaticRouter> when prerendering. Declarative
 * routing: the data router (loaders, actions) is not used and would add ~20 KB gzip to every page's entry
 * (docs/performance.md).
 */
export function AppRoutes() {
  // The last resort, for the layout itself; each page has its own boundary inside the layout (root-layout.tsx).
  return <RouteErrorBoundary>{useRoutes(appRoutes)}</RouteErrorBoundary>;
}
