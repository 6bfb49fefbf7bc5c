import { useParams } from 'react-router';
import CompanyPage from './company-page.tsx';
import DirectoryPage from './directory-page.tsx';

/**
 * The directory and the company pages as one route chunk (one entry in the router's table: the entry bundle
 * is at its budget, scripts/check-bundle.mjs).
 */
export default function CompaniesPages() {
  return useParams().slug ? <CompanyPage /> : <DirectoryPage />;
}
