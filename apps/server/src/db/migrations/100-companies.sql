-- Issue 14: the team's review of partner applications, the companies it approves, and their users.

-- The decision on an application: who decided, when, and the reason given to a rejected applicant.
ALTER TABLE company_requests
  ADD COLUMN decided_at timestamptz,
  ADD COLUMN decided_by text REFERENCES users (id) ON DELETE SET NULL,
  ADD COLUMN rejection_reason text,
  ADD CONSTRAINT company_requests_rejection_has_reason CHECK (
    status <> 'rejected' OR length(btrim(coalesce(rejection_reason, ''))) > 0);
CREATE INDEX company_requests_pending_idx ON company_requests (created_at) WHERE status = 'pending';

-- An approved company (partner). Its id is the id of the application it came from. The profile starts as
-- the application's fields; the partner portal edits it.
CREATE TABLE companies (
  id uuid PRIMARY KEY REFERENCES company_requests (id),
  slug text NOT NULL,
  state text NOT NULL DEFAULT 'active',
  company_type text NOT NULL,
  name text NOT NULL,
  street_name text NOT NULL,
  house_number text NOT NULL,
  postal_code text NOT NULL,
  phone_number text NOT NULL,
  email text NOT NULL,
  website text,
  description text,
  -- The address invited to become the first partner user; cleared when a verified account with it claims.
  claim_email text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT companies_slug_key UNIQUE (slug),
  CONSTRAINT companies_slug_format CHECK (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$'),
  CONSTRAINT companies_state_check CHECK (state IN ('active', 'suspended'))
);
CREATE INDEX companies_claim_email_idx ON companies (lower(claim_email)) WHERE claim_email IS NOT NULL;

-- The company's users (partner rights while the company is active); one or more administrators.
CREATE TABLE company_users (
  company_id uuid NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
  user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  is_admin boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (company_id, user_id)
);
CREATE INDEX company_users_user_idx ON company_users (user_id);

-- Who changed what about an application or company, and when; written in the same transaction.
CREATE TABLE company_audit_log (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  seq bigint GENERATED ALWAYS AS IDENTITY,
  company_id uuid NOT NULL REFERENCES company_requests (id) ON DELETE CASCADE,
  actor_kind text NOT NULL,
  actor_user_id text REFERENCES users (id) ON DELETE SET NULL,
  actor_name text,
  action text NOT NULL,
  details jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT company_audit_log_actor_kind_check CHECK (actor_kind IN ('user', 'anonymous', 'system')),
  CONSTRAINT company_audit_log_action_format CHECK (action ~ '^[a-z_]+\.[a-z_]+$'),
  CONSTRAINT company_audit_log_seq_key UNIQUE (seq)
);
CREATE INDEX company_audit_log_company_seq_idx ON company_audit_log (company_id, seq DESC);

-- Team members the team granted the role to, besides ADMIN_EMAILS. Rights need the address verified, as
-- for ADMIN_EMAILS.
CREATE TABLE team_members (
  email text PRIMARY KEY,
  granted_by text REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT team_members_email_lower CHECK (email = lower(email))
);

-- Who granted or took back the team role, and when; written in the same transaction.
CREATE TABLE team_audit_log (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  seq bigint GENERATED ALWAYS AS IDENTITY,
  actor_user_id text REFERENCES users (id) ON DELETE SET NULL,
  actor_name text,
  action text NOT NULL,
  email text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT team_audit_log_action_check CHECK (action IN ('team.granted', 'team.revoked')),
  CONSTRAINT team_audit_log_seq_key UNIQUE (seq)
);
