import type { ComponentType } from 'react';
import { ProfileSection } from './profile-section.tsx';

/** What a section of the partner portal gets: the company it works on. */
export interface PortalSectionProps {
  company: { id: string; slug: string; name: string; isAdmin: boolean };
}

/**
 * The sections (tabs) of the partner portal, in order. Each is its own component in its own file; add one
 * entry here for a new section. `id` is its value of `?tab=` and the end of its element ids.
 */
export const portalSections: readonly {
  id: string;
  label: string;
  Component: ComponentType<PortalSectionProps>;
}[] = [{ id: 'profiel', label: 'Profiel', Component: ProfileSection }];
