import * as z from 'zod/mini';

/**
 * Plans: one definition for the server's checks and the pricing cards. Every new
 * memorial starts on a trial with Premium's features; then the family chooses Basis (per year) or
 * Premium (once). A page whose trial or Basis year ended unpaid is read-only, never deleted.
 */
export const planIds = ['trial', 'basis', 'premium'] as const;
export type PlanId = (typeof planIds)[number];
/** The plans one can pay for. */
export const paidPlanIds = ['basis', 'premium'] as const;
export type PaidPlanId = (typeof paidPlanIds)[number];

/** Trial length when TRIAL_DAYS is not set. */
export const DEFAULT_TRIAL_DAYS = 30;
/** Reminder mails this many days before a trial or a Basis year ends. */
export const PLAN_REMINDER_DAYS = [7, 1] as const;
/** Dutch VAT on our plans. */
export const VAT_PERCENT = 21;

/** What a plan may do; features other issues build check it with `planAllows` on the server. */
export const planFeatures = [
  'basicVideo',
  'basicBiography',
  'guestbook',
  'advancedVideo',
  'aiBiography',
  'printedBook',
] as const;
export type PlanFeature = (typeof planFeatures)[number];

/** Counted limits; null = unlimited. */
export const planLimits = ['memories', 'futureMessages'] as const;
export type PlanLimit = (typeof planLimits)[number];

export interface PlanDefinition {
  id: PlanId;
  title: string;
  /** Price in euro cents, VAT included; 0 for the trial. */
  priceCents: number;
  /** 'year': paid per year; 'once': for good; 'trial': TRIAL_DAYS. */
  period: 'year' | 'once' | 'trial';
  features: readonly PlanFeature[];
  limits: Record<PlanLimit, number | null>;
}

const premiumFeatures = planFeatures;

export const plans: Record<PlanId, PlanDefinition> = {
  trial: {
    id: 'trial',
    title: 'Proefperiode',
    priceCents: 0,
    period: 'trial',
    features: premiumFeatures,
    limits: { memories: null, futureMessages: null },
  },
  basis: {
    id: 'basis',
    title: 'Basis',
    priceCents: 5000,
    period: 'year',
    features: ['basicVideo', 'basicBiography'],
    limits: { memories: 6, futureMessages: 1 },
  },
  premium: {
    id: 'premium',
    title: 'Premium',
    priceCents: 19900,
    period: 'once',
    features: premiumFeatures,
    limits: { memories: null, futureMessages: null },
  },
};

/** The pricing card, made from the plan definition. */
export interface PricingPlan {
  id: PaidPlanId;
  title: string;
  /** 1 marks the plan as 'Populair'. */
  popular: 0 | 1;
  /** Whole euros. */
  price: number;
  description: string;
  buttonText: string;
  subscriptionLength: string;
  benefitList: string[];
}

export const pricingPlans: readonly PricingPlan[] = [
  {
    id: 'basis',
    title: plans.basis.title,
    popular: 0,
    price: plans.basis.priceCents / 100,
    description: 'Alles wat je nodig hebt om samen herinneringen te bewaren en te delen.',
    buttonText: 'Begin gratis',
    subscriptionLength: '/per jaar',
    benefitList: [
      `Upload tot ${plans.basis.limits.memories} herinneringen`,
      'Onbeperkt aantal bijdragers',
      'Veilig en zonder advertenties',
      'Eenvoudige videopresentatie van herinneringen',
      'Eenvoudig sjabloon voor de levensloop',
      'Stuur één toekomstig bericht naar iedereen',
      'Klantenservice door echte mensen',
    ],
  },
  {
    id: 'premium',
    title: plans.premium.title,
    popular: 1,
    price: plans.premium.priceCents / 100,
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

export const planErrorCodes = {
  /** A plan's limit is reached (e.g. Basis's 6 memories). */
  planLimit: 'PLAN_LIMIT',
  /** The trial or the Basis year ended unpaid: the page is read-only until a plan is chosen. */
  planReadOnly: 'PLAN_READ_ONLY',
  /** A Premium feature (guestbook, video builder, AI biography, printed book) asked on a page without it. */
  planFeature: 'PLAN_FEATURE',
  /** Payments are switched off (no MOLLIE_API_KEY). */
  paymentsDisabled: 'PAYMENTS_DISABLED',
  /** Mollie could not be reached or refused the payment. */
  paymentProviderError: 'PAYMENT_PROVIDER_ERROR',
  paymentNotFound: 'PAYMENT_NOT_FOUND',
  /** Only a paid payment that was not refunded yet can be refunded. */
  paymentNotRefundable: 'PAYMENT_NOT_REFUNDABLE',
  /** A payment for the same thing is being paid or started right now; a second one is not made. */
  paymentUnderway: 'PAYMENT_UNDERWAY',
} as const;

export const paymentStatuses = [
  'open',
  'pending',
  'authorized',
  'paid',
  'failed',
  'canceled',
  'expired',
] as const;
export type PaymentStatus = (typeof paymentStatuses)[number];

/**
 * What a partner company pays for (docs/plans.md, "Partners"): its partnership, a year at a time, and the
 * Premium pages it made for families (Premium's price per page).
 */
export const companyPaymentPurposes = ['partnership', 'company_pages'] as const;
export type CompanyPaymentPurpose = (typeof companyPaymentPurposes)[number];
/** The partnership's price per year, VAT included ("partners from 299 euro"). */
export const PARTNERSHIP_PRICE_CENTS = 29900;
/** What a payment was for, as people read it. */
export const paymentPurposeLabels: Record<PaidPlanId | CompanyPaymentPurpose, string> = {
  basis: 'Basis',
  premium: 'Premium',
  partnership: 'Partnerschap (een jaar)',
  company_pages: 'Pagina’s voor families',
};

export const paymentSchema = z.object({
  id: z.string(),
  memorialId: z.nullable(z.string()),
  /** A plan for a page, or (a company's payment) what the company paid for. */
  plan: z.enum([...paidPlanIds, ...companyPaymentPurposes]),
  amountCents: z.number(),
  status: z.enum(paymentStatuses),
  createdAt: z.string(),
  paidAt: z.nullable(z.string()),
  /** The invoice of a paid payment: its number and a signed link to the PDF (valid an hour). */
  invoice: z.nullable(z.object({ id: z.string(), number: z.string(), url: z.string() })),
  /** Refunded by the team, with its credit invoice. */
  refundedAt: z.nullable(z.string()),
  creditInvoice: z.nullable(z.object({ id: z.string(), number: z.string(), url: z.string() })),
});
export type Payment = z.infer<typeof paymentSchema>;

/** The plan of one memorial as its members see it. */
export const memorialPlanSchema = z.object({
  memorialId: z.string(),
  plan: z.enum(planIds),
  /** 'active': usable; 'read_only': the trial or Basis year ended unpaid. */
  state: z.enum(['active', 'read_only']),
  /** When the trial or the paid Basis year ends; null for Premium. */
  endsAt: z.nullable(z.string()),
  /** Whole days left until `endsAt` (0 on the last day); null for Premium. */
  daysLeft: z.nullable(z.number()),
  /** Paid for by a partner company; the family never sees a payment screen. */
  paidByCompany: z.boolean(),
  features: z.array(z.enum(planFeatures)),
  memories: z.object({ used: z.number(), max: z.nullable(z.number()) }),
  /** The caller may choose and pay a plan (owners and editors). */
  canPay: z.boolean(),
  paymentsEnabled: z.boolean(),
  /** This server can take videos (and music): it has ffmpeg. Without it only photos are uploaded. */
  videoAndMusic: z.boolean(),
  payments: z.array(paymentSchema),
});
export type MemorialPlan = z.infer<typeof memorialPlanSchema>;

const nonBlank = (max: number) => z.string().check(z.trim(), z.minLength(1), z.maxLength(max));

export const paymentCreateSchema = z.object({
  memorialId: z.string().check(z.maxLength(100)),
  plan: z.enum(paidPlanIds),
  buyerName: nonBlank(200),
  buyerAddress: nonBlank(300),
  buyerPostalCode: nonBlank(20),
  buyerCity: nonBlank(100),
});
export const paymentCreatedSchema = z.object({ paymentId: z.string(), checkoutUrl: z.string() });

export const teamPlanSetSchema = z.object({
  plan: z.enum(planIds),
  /** For Basis: until when it is paid (ISO date); default a year from now. */
  paidUntil: z.optional(z.string().check(z.maxLength(40))),
  reason: nonBlank(500),
});

export const teamRefundSchema = z.object({ reason: nonBlank(500) });

export const mollieWebhookSchema = z.object({ id: z.optional(z.string().check(z.maxLength(100))) });

/** A company pays its partnership or the pages it owes for (company administrators). */
export const companyPaymentCreateSchema = z.object({ purpose: z.enum(companyPaymentPurposes) });

/** The partner portal's 'Betalingen': the partnership, what is owed for the pages, the payments. */
export const companyBillingSchema = z.object({
  paymentsEnabled: z.boolean(),
  /** Only administrators pay. */
  canPay: z.boolean(),
  partnership: z.object({
    priceCents: z.number(),
    /** Until when it is paid; null when it never was. */
    paidUntil: z.nullable(z.string()),
    state: z.enum(['paid', 'unpaid', 'expired']),
  }),
  owed: z.object({
    pages: z.array(z.object({ memorialId: z.string(), name: z.string(), amountCents: z.number() })),
    totalCents: z.number(),
  }),
  payments: z.array(paymentSchema),
});
export type CompanyBilling = z.infer<typeof companyBillingSchema>;

/** The team looks a page up by name or number (team only). */
export const teamMemorialSearchSchema = z.object({
  q: z.string().check(z.trim(), z.minLength(1), z.maxLength(200)),
});
export const teamMemorialsSchema = z.object({
  items: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      status: z.string(),
      plan: z.enum(planIds),
      paidByCompany: z.boolean(),
    }),
  ),
});
export type TeamMemorials = z.infer<typeof teamMemorialsSchema>;
/** A page's plan as the team sees it: the page's name, its trial's start, everything members see. */
export const teamMemorialPlanSchema = z.extend(memorialPlanSchema, {
  memorialName: z.string(),
  trialStartedAt: z.string(),
});
export type TeamMemorialPlan = z.infer<typeof teamMemorialPlanSchema>;
