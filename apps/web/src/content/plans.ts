/** The two plans (spec §9), in the spec's data shape. */
export interface PricingPlan {
  title: string;
  /** 1 marks the plan as 'Populair'. */
  popular: 0 | 1;
  price: number;
  description: string;
  buttonText: string;
  subscriptionLength: string;
  benefitList: string[];
}

export const pricingPlans: readonly PricingPlan[] = [
  {
    title: 'Basis',
    popular: 0,
    price: 50,
    description: 'Alles wat je nodig hebt om samen herinneringen te bewaren en te delen.',
    buttonText: 'Begin gratis',
    subscriptionLength: '/per jaar',
    benefitList: [
      'Upload tot 6 herinneringen',
      'Onbeperkt aantal bijdragers',
      'Veilig en zonder advertenties',
      'Eenvoudige videopresentatie van herinneringen',
      'Eenvoudig sjabloon voor de levensloop',
      'Stuur één toekomstig bericht naar iedereen',
      'Klantenservice door echte mensen',
    ],
  },
  {
    title: 'Premium',
    popular: 1,
    price: 199,
    description: 'De meest complete manier om een leven te eren, voor altijd.',
    buttonText: 'Begin gratis',
    subscriptionLength: '/eenmalige betaling',
    benefitList: [
      'Alles uit Basis',
      'Onbeperkt herinneringen',
      'Onbeperkt toekomstige berichten',
      'Digitaal gastenboek voor de uitvaart of herdenkingsdienst',
      'Uitgebreide videobouwer voor herinneringen',
      'Levensverhaal schrijven met hulp van AI',
      'Optie voor een gedrukt herinneringsboek',
    ],
  },
];
