import { describe, expect, it } from 'vitest';
import type { MemorialPlan } from '@aandenken/contract';
import { memoriesLeft, planSummary } from './plan-text.ts';

const base: MemorialPlan = {
  memorialId: 'm',
  plan: 'trial',
  state: 'active',
  endsAt: '2026-12-24T12:00:00.000Z',
  daysLeft: 12,
  paidByCompany: false,
  features: [],
  memories: { used: 0, max: null },
  canPay: true,
  paymentsEnabled: true,
  videoAndMusic: true,
  payments: [],
};

describe('plan texts', () => {
  it('explains Basis’s limit before it bites, and when it does', () => {
    expect(memoriesLeft({ ...base, plan: 'basis', memories: { used: 5, max: 6 } })).toBe(
      'Nog 1 herinnering binnen Basis',
    );
    expect(memoriesLeft({ ...base, plan: 'basis', memories: { used: 2, max: 6 } })).toBe(
      'Nog 4 herinneringen binnen Basis',
    );
    expect(memoriesLeft({ ...base, plan: 'basis', memories: { used: 6, max: 6 } })).toBe(
      'Alle 6 herinneringen van Basis zijn gebruikt',
    );
    expect(memoriesLeft(base)).toBeNull();
  });

  it('says what the page has now', () => {
    expect(planSummary(base)).toBe('Proefperiode met alles van Premium, nog 12 dagen');
    expect(planSummary({ ...base, daysLeft: 0 })).toBe('Proefperiode, vandaag de laatste dag');
    expect(planSummary({ ...base, plan: 'premium', endsAt: null, daysLeft: null })).toBe(
      'Premium, voor altijd',
    );
    expect(planSummary({ ...base, plan: 'basis' })).toBe('Basis, betaald tot 24 december 2026');
    expect(planSummary({ ...base, state: 'read_only' })).toBe(
      'De proefperiode is op 24 december 2026 afgelopen',
    );
    expect(planSummary({ ...base, paidByCompany: true })).toBe(
      'Proefperiode, betaald door je uitvaartonderneming',
    );
  });
});
