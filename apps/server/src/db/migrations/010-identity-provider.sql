-- Everything the embedded OpenID Connect provider stores (sessions, interactions, grants, codes,
-- refresh tokens, ...), one row per model instance. Looked up by id, grant id (revocation), uid
-- (sessions) and user code; rows past expires_at count as gone and are swept periodically.
CREATE TABLE oidc_models (
  model text NOT NULL,
  id text NOT NULL,
  payload jsonb NOT NULL,
  grant_id text,
  uid text,
  user_code text,
  expires_at timestamptz,
  consumed_at timestamptz,
  CONSTRAINT oidc_models_pkey PRIMARY KEY (model, id)
);
CREATE INDEX oidc_models_grant_id_idx ON oidc_models (grant_id) WHERE grant_id IS NOT NULL;
CREATE INDEX oidc_models_uid_idx ON oidc_models (model, uid) WHERE uid IS NOT NULL;
CREATE INDEX oidc_models_user_code_idx ON oidc_models (model, user_code) WHERE user_code IS NOT NULL;
CREATE INDEX oidc_models_expires_at_idx ON oidc_models (expires_at) WHERE expires_at IS NOT NULL;

-- Brute-force detection, per lower-cased e-mail address (also for addresses without an account, so the
-- behaviour never tells whether an account exists).
CREATE TABLE login_failures (
  email text PRIMARY KEY,
  failures integer NOT NULL,
  last_failure_at timestamptz NOT NULL,
  locked_until timestamptz,
  CONSTRAINT login_failures_email_lower CHECK (email = lower(email)),
  CONSTRAINT login_failures_failures_positive CHECK (failures > 0)
);

-- Single-use links sent by mail (password reset, e-mail verification); only a hash of the token is kept.
CREATE TABLE account_action_tokens (
  token_hash text PRIMARY KEY,
  account_id uuid NOT NULL,
  purpose text NOT NULL,
  interaction_uid text,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT account_action_tokens_account_fkey FOREIGN KEY (account_id) REFERENCES accounts (id) ON DELETE CASCADE,
  CONSTRAINT account_action_tokens_purpose_check CHECK (purpose IN ('reset-password', 'verify-email'))
);
CREATE INDEX account_action_tokens_account_idx ON account_action_tokens (account_id, purpose);

-- A sign-in at an external provider (Google) in progress: ties the provider's answer to one interaction.
CREATE TABLE federation_states (
  state text PRIMARY KEY,
  provider text NOT NULL,
  interaction_uid text NOT NULL,
  code_verifier text NOT NULL,
  nonce text NOT NULL,
  account_id uuid,
  error text,
  expires_at timestamptz NOT NULL,
  consumed_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT federation_states_account_fkey FOREIGN KEY (account_id) REFERENCES accounts (id) ON DELETE CASCADE,
  CONSTRAINT federation_states_provider_check CHECK (provider IN ('google'))
);
