-- Issue 15: the plan of each memorial (docs/plans.md). One row per memorial, made by a trigger when the
-- memorial is inserted, so every way of creating one (the create flow, the examples, tests) starts a trial.
-- The trial ends TRIAL_DAYS (configuration) after `trial_started_at`; Basis ends at `paid_until`; Premium
-- never ends. A page whose trial or Basis year ended is read-only, never deleted.
CREATE TABLE memorial_plans (
  memorial_id uuid PRIMARY KEY REFERENCES memorials (id) ON DELETE CASCADE,
  plan text NOT NULL DEFAULT 'trial',
  trial_started_at timestamptz NOT NULL DEFAULT now(),
  -- Basis: the end of the paid year(s).
  paid_until timestamptz,
  -- A partner company that pays for this page (issue 14); the family then never sees a payment screen.
  payer_company_id uuid REFERENCES companies (id) ON DELETE SET NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT memorial_plans_plan_check CHECK (plan IN ('trial', 'basis', 'premium')),
  CONSTRAINT memorial_plans_basis_has_end CHECK (plan <> 'basis' OR paid_until IS NOT NULL)
);
CREATE INDEX memorial_plans_payer_idx ON memorial_plans (payer_company_id) WHERE payer_company_id IS NOT NULL;

-- Existing memorials get a trial starting now: no page is locked by this migration.
INSERT INTO memorial_plans (memorial_id) SELECT id FROM memorials ON CONFLICT DO NOTHING;

CREATE FUNCTION memorial_plan_start() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO memorial_plans (memorial_id) VALUES (NEW.id) ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;
CREATE TRIGGER memorials_plan_start AFTER INSERT ON memorials
  FOR EACH ROW EXECUTE FUNCTION memorial_plan_start();

-- The reminder and read-only mails, sent once each per period: `period_end` is the trial's or the year's
-- end the mail was about, so a renewed year gets its own reminders.
CREATE TABLE memorial_plan_notices (
  memorial_id uuid NOT NULL REFERENCES memorials (id) ON DELETE CASCADE,
  kind text NOT NULL,
  period_end timestamptz NOT NULL,
  sent_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (memorial_id, kind, period_end),
  CONSTRAINT memorial_plan_notices_kind_check CHECK (kind IN ('ends_in_7', 'ends_in_1', 'read_only'))
);
