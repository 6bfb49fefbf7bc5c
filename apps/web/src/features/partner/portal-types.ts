import type { AccountRoles } from '@aandenken/contract';

/** What a section of the partner portal gets: the (active) company it works on, as GET /account/roles lists it. */
export interface PortalSectionProps {
  company: AccountRoles['companies'][number];
}
