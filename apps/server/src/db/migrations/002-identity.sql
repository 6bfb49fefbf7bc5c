-- Accounts of the embedded identity provider (credentials live only here).
CREATE TABLE accounts (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  email text NOT NULL,
  name text NOT NULL,
  password_hash text,
  email_verified boolean NOT NULL DEFAULT false,
  google_sub text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT accounts_email_not_blank CHECK (length(btrim(email)) > 0),
  CONSTRAINT accounts_google_sub_key UNIQUE (google_sub)
);
CREATE UNIQUE INDEX accounts_email_lower_key ON accounts (lower(email));

-- Users as the API knows them: one row per token subject, from the embedded provider or any other
-- (a Keycloak realm), kept current from the access token's claims.
CREATE TABLE users (
  id text PRIMARY KEY,
  email text,
  name text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX users_email_lower_idx ON users (lower(email));

-- Keys and secrets generated on first start; never in the repository.
CREATE TABLE server_secrets (
  name text PRIMARY KEY,
  value jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
