import { describe, expect, it } from 'vitest';
import { companyRequestSchema, companyTypes } from './index.ts';

const valid = {
  companyType: 'FuneralDirector',
  firstName: 'Anna',
  lastName: 'de Vries',
  companyName: 'Uitvaartzorg De Linde',
  streetName: 'Lindelaan',
  houseNumber: '12a',
  postalCode: '1234 AB',
  phoneNumber: '+31 20 123 4567',
  email: 'anna@delinde.nl',
};

function messagesAt(input: unknown, field: string): string[] {
  const result = companyRequestSchema.safeParse(input);
  if (result.success) return [];
  return result.error.issues.filter((i) => i.path.join('.') === field).map((i) => i.message);
}

describe('companyRequestSchema', () => {
  it('accepts a complete application of every type but the other one without a description', () => {
    for (const companyType of companyTypes.filter((t) => t !== 'OtherServiceProvider')) {
      expect(companyRequestSchema.safeParse({ ...valid, companyType }).success).toBe(true);
    }
  });

  it('requires a description of the services for OtherServiceProvider', () => {
    const other = { ...valid, companyType: 'OtherServiceProvider' };
    expect(messagesAt(other, 'serviceDescription')).toEqual(['Omschrijf je diensten']);
    expect(messagesAt({ ...other, serviceDescription: '   ' }, 'serviceDescription')).toEqual([
      'Omschrijf je diensten',
    ]);
    expect(
      companyRequestSchema.safeParse({ ...other, serviceDescription: 'Bloemstukken en rouwdrukwerk' })
        .success,
    ).toBe(true);
  });

  it('names each missing field in Dutch', () => {
    expect(messagesAt({ ...valid, companyType: undefined }, 'companyType')).toEqual([
      'Kies het soort bedrijf',
    ]);
    expect(messagesAt({ ...valid, companyName: ' ' }, 'companyName')).toEqual(['Bedrijfsnaam is verplicht']);
    expect(messagesAt({ ...valid, postalCode: '0123AB' }, 'postalCode')).toEqual([
      'Voer een geldige postcode in, bijvoorbeeld 1234 AB',
    ]);
    expect(messagesAt({ ...valid, email: 'anna@' }, 'email')).toEqual(['Voer een geldig e-mailadres in']);
  });
});
