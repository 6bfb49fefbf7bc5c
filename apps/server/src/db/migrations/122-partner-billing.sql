-- Issue 15 (the rest): partner companies pay through Mollie too (docs/plans.md, "Partners"): their
-- partnership (per year) and the Premium pages they made for families. A company's payment has no
-- memorial; it names the company and what it is for.
ALTER TABLE payments
  ADD COLUMN company_id uuid REFERENCES companies (id) ON DELETE SET NULL,
  DROP CONSTRAINT payments_plan_check,
  ADD CONSTRAINT payments_plan_check CHECK (plan IN ('basis', 'premium', 'partnership', 'company_pages'));
CREATE INDEX payments_company_idx ON payments (company_id, created_at DESC) WHERE company_id IS NOT NULL;

-- Until when the company's partnership is paid; NULL: never paid.
ALTER TABLE companies ADD COLUMN partnership_paid_until timestamptz;

-- The pages a company's payment for its pages covers, as they were when the payment was made (the invoice
-- lists them). A page is settled when that payment is paid (memorial_plans.company_settled_by).
CREATE TABLE company_payment_pages (
  payment_id uuid NOT NULL REFERENCES payments (id) ON DELETE CASCADE,
  memorial_id uuid NOT NULL,
  memorial_name text NOT NULL,
  amount_cents integer NOT NULL,
  PRIMARY KEY (payment_id, memorial_id),
  CONSTRAINT company_payment_pages_amount_check CHECK (amount_cents > 0)
);

-- The paid payment that settled what the company owed for this page; NULL while it is owed (or the page is
-- not paid for by a company). A refund of that payment sets it back to NULL.
ALTER TABLE memorial_plans ADD COLUMN company_settled_by uuid REFERENCES payments (id) ON DELETE SET NULL;

-- The lines of an invoice that lists several things (a company's pages): [{ "description", "amountCents" }].
-- NULL: the invoice has the one line of its description.
ALTER TABLE invoices ADD COLUMN lines jsonb;
