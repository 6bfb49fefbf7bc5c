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
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT payments_plan_check CHECK (plan IN ('basis', 'premium')),
  CONSTRAINT payments_amount_check CHECK (amount_cents > 0),
  CONSTRAINT payments_status_check CHECK (
    status IN ('open', 'pending', 'authorized', 'paid', 'failed', 'canceled', 'expired')),
  CONSTRAINT payments_mollie_id_key UNIQUE (mollie_id)
);
CREATE INDEX payments_memorial_idx ON payments (memorial_id, created_at DESC);
