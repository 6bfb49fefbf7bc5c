import { useLocation } from 'react-router';
import { routes } from '@aandenken/contract';
import PartnerPortalPage from '../features/partner/partner-portal-page.tsx';
import TeamReviewPage from '../features/team/team-review-page.tsx';

/**
 * The team's review screen and the partner page as one route chunk: one entry in the router's table
 * instead of two, because the entry bundle is at its budget (scripts/check-bundle.mjs).
 */
export default function TeamPages() {
  return useLocation().pathname.startsWith(routes.teamReview) ? <TeamReviewPage /> : <PartnerPortalPage />;
}
