import type { ComponentType } from 'react';
import { BillingSection } from './billing-section.tsx';
import { ColleaguesSection } from './colleagues-section.tsx';
import { FamilyPagesSection } from './family-pages-section.tsx';
import { ProfileSection } from './profile-section.tsx';

import type { PortalSectionProps } from './portal-types.ts';

export type { PortalSectionProps };

/**
 * The sections (tabs) of the partner portal, in order. Each is its own component in its own file; add one
 * entry here for a new section. `id` is its value of `?tab=` and the end of its element ids.
 */
export const portalSections: readonly {
  id: string;
  label: string;
  Component: ComponentType<PortalSectionProps>;
}[] = [
  { id: 'profiel', label: 'Profiel', Component: ProfileSection },
  { id: 'paginas', label: 'Pagina’s voor families', Component: FamilyPagesSection },
  { id: 'collegas', label: 'Collega’s', Component: ColleaguesSection },
  { id: 'betalingen', label: 'Betalingen', Component: BillingSection },
];
