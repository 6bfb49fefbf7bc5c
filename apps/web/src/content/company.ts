/** How to reach Aandenken (shown on /contact and in the footer). */
export const company = {
  legalName: 'Aandenken B.V.',
  email: 'contact@aandenken.nl',
  phone: '030 207 45 80',
  phoneHref: '+31302074580',
  street: 'Oudegracht 214',
  postalCode: '3511 NS',
  city: 'Utrecht',
  openingHours: 'ma-vr 9:00-17:00',
} as const;

/** Marketing claims. */
export const claims = {
  partnerPriceFrom: 299,
  activePartners: '250+',
  familySatisfaction: '98%',
  approvalHours: '24-48',
  pageWorkingDays: '3-5',
} as const;
