-- When the account's e-mail address was verified (issue 13, item 1). An access token issued before this
-- moment belongs to a sign-in from before the address was proven, possibly by someone else who registered
-- it first: it never carries team rights. NULL for addresses verified before this column existed.
ALTER TABLE accounts ADD COLUMN email_verified_at timestamptz;
