-- One open payment per company and purpose, and per page and plan: clicks on 'betalen' in quick succession
-- get the open payment's checkout again instead of a second payment (and a second invoice) for the same
-- thing. Open is what Mollie has not decided yet.
--
-- Rows that already break the rule keep only their newest open payment; the older ones are closed here. A
-- closed row is never opened again (payments/service.ts), yet Mollie's 'paid' for it is still taken.
UPDATE payments p SET status = 'canceled', updated_at = now()
 WHERE p.status IN ('open', 'pending', 'authorized')
   AND EXISTS (
     SELECT 1 FROM payments q
      WHERE q.status IN ('open', 'pending', 'authorized') AND q.plan = p.plan
        AND (q.created_at, q.id) > (p.created_at, p.id)
        AND (CASE WHEN p.company_id IS NOT NULL THEN q.company_id = p.company_id
                  ELSE q.company_id IS NULL AND q.memorial_id = p.memorial_id END));

CREATE UNIQUE INDEX payments_one_open_per_company ON payments (company_id, plan)
  WHERE company_id IS NOT NULL AND status IN ('open', 'pending', 'authorized');
CREATE UNIQUE INDEX payments_one_open_per_page ON payments (memorial_id, plan)
  WHERE company_id IS NULL AND memorial_id IS NOT NULL AND status IN ('open', 'pending', 'authorized');

-- A refund by the team claims the payment first (this moment), then asks Mollie: a second refund of the same
-- payment, at once or later, finds it claimed and is refused without calling Mollie.
ALTER TABLE payments ADD COLUMN refund_started_at timestamptz;
