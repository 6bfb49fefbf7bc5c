import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import type { Payment } from '@aandenken/contract';
import { PaymentList } from './payment-list.tsx';

afterEach(cleanup);

const payment = (over: Partial<Payment>): Payment => ({
  id: 'p1',
  memorialId: null,
  plan: 'partnership',
  amountCents: 12_500,
  status: 'paid',
  createdAt: '2026-11-24T10:00:00Z',
  paidAt: '2026-11-24T10:01:00Z',
  invoice: null,
  refundedAt: null,
  creditInvoice: null,
  ...over,
});

describe('<PaymentList>', () => {
  it('says when nothing was paid', () => {
    render(<PaymentList payments={[]} amount={() => 'x'} empty="Je bedrijf heeft nog niets betaald." />);
    expect(screen.getByText('Je bedrijf heeft nog niets betaald.')).toBeTruthy();
    expect(screen.queryByRole('list')).toBeNull();
  });

  it('lists each payment with its amount, state and invoice links, the credit invoice first', () => {
    render(
      <PaymentList
        payments={[
          payment({
            id: 'a',
            invoice: { id: 'i1', number: 'AK-000001', url: '/f/1.pdf' },
            refundedAt: '2026-11-25T10:00:00Z',
            creditInvoice: { id: 'i2', number: 'AK-000002', url: '/f/2.pdf' },
          }),
          payment({ id: 'b', plan: 'basis', status: 'open' }),
        ]}
        amount={(p) => `€ ${p.amountCents / 100}`}
        empty="-"
        label="Betalingen"
      />,
    );
    const items = within(screen.getByRole('list', { name: 'Betalingen' })).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0]!.textContent).toContain('Partnerschap (een jaar) · € 125 · 24 november 2026');
    expect(within(items[0]!).getByText('Teruggestort')).toBeTruthy();
    const links = within(items[0]!).getAllByRole('link');
    expect(links.map((a) => [a.textContent, a.getAttribute('href'), a.hasAttribute('download')])).toEqual([
      ['Creditfactuur AK-000002 (pdf)', '/f/2.pdf', true],
      ['Factuur AK-000001 (pdf)', '/f/1.pdf', true],
    ]);
    expect(within(items[1]!).getByText('Nog niet betaald')).toBeTruthy();
    expect(within(items[1]!).queryByRole('link')).toBeNull();
  });
});
