-- Issue 15: payments through Mollie (docs/plans.md). A payment row is written before Mollie is asked, so
-- a webhook always finds the row it belongs to; the plan is granted once (`applied_at`), in the same
-- transaction that sees the payment paid, whatever order or how often Mollie's webhooks arrive.
CREATE TABLE payments (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- Kept for the books when the memorial is deleted.
  memorial_id uuid REFERENCES memorials (id) ON DELETE SET NULL,
  plan text NOT NULL,
  amount_cents integer NOT NULL,
  currency text NOT NULL DEFAULT 'EUR',
  status text NOT NULL DEFAULT 'open',
  mollie_id text,
  checkout_url text,
  created_by text REFERENCES users (id) ON DELETE SET NULL,
  buyer_email text,
  buyer_name text NOT NULL,
  buyer_address text NOT NULL,
  buyer_postal_code text NOT NULL,
  buyer_city text NOT NULL,
  paid_at timestamptz,
  -- When the plan was granted for this payment; set once.
  applied_at timestamptz,
  -- A refund by the team through Mollie (its refund id), once.
  refunded_at timestamptz,
  refund_mollie_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT payments_plan_check CHECK (plan IN ('basis', 'premium')),
  CONSTRAINT payments_amount_check CHECK (amount_cents > 0),
  CONSTRAINT payments_status_check CHECK (
    status IN ('open', 'pending', 'authorized', 'paid', 'failed', 'canceled', 'expired')),
  CONSTRAINT payments_mollie_id_key UNIQUE (mollie_id)
);
CREATE INDEX payments_memorial_idx ON payments (memorial_id, created_at DESC);

-- Invoices (and credit invoices) in one unbroken sequence: the number comes from the single counter row,
-- updated in the transaction that issues the invoice (that of the payment seen paid), so a rolled-back
-- transaction leaves no gap and two at once wait for each other. The PDF is made from the row on demand.
CREATE TABLE invoice_counter (
  id boolean PRIMARY KEY DEFAULT true,
  last_number integer NOT NULL DEFAULT 0,
  CONSTRAINT invoice_counter_single_row CHECK (id)
);
INSERT INTO invoice_counter (id, last_number) VALUES (true, 0);

CREATE TABLE invoices (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  number integer NOT NULL,
  kind text NOT NULL DEFAULT 'invoice',
  payment_id uuid NOT NULL REFERENCES payments (id),
  memorial_id uuid REFERENCES memorials (id) ON DELETE SET NULL,
  issued_at timestamptz NOT NULL DEFAULT now(),
  description text NOT NULL,
  -- VAT included; a credit invoice has negative amounts.
  amount_cents integer NOT NULL,
  vat_cents integer NOT NULL,
  vat_percent integer NOT NULL,
  buyer_name text NOT NULL,
  buyer_address text NOT NULL,
  buyer_postal_code text NOT NULL,
  buyer_city text NOT NULL,
  CONSTRAINT invoices_number_key UNIQUE (number),
  CONSTRAINT invoices_kind_check CHECK (kind IN ('invoice', 'credit')),
  CONSTRAINT invoices_payment_kind_key UNIQUE (payment_id, kind)
);
CREATE INDEX invoices_memorial_idx ON invoices (memorial_id, number DESC);
