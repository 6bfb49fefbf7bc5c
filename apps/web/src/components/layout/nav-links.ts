import { routes } from '@aandenken/contract';

/** The header's links, texts verbatim. */
export const navLinks = [
  { to: routes.createMemorial, label: 'Maak een pagina' },
  { to: routes.privatePage, label: 'Bezoek besloten Pagina' },
  { to: routes.contact, label: 'Contact' },
] as const;
