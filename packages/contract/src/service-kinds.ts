// No zod here: the memorial page's first screen names a service's kind without loading the schemas
// (funeral-day.ts).

export const serviceKinds = ['uitvaart', 'afscheid', 'crematie', 'herdenking'] as const;
export type ServiceKind = (typeof serviceKinds)[number];
export const serviceKindLabels: Record<ServiceKind, string> = {
  uitvaart: 'Uitvaart',
  afscheid: 'Afscheid',
  crematie: 'Crematie',
  herdenking: 'Herdenking',
};
