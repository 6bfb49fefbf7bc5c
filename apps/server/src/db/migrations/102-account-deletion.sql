-- Account deletion (issue 21, item 3; docs/privacy.md). The account row goes (its address is free to
-- register again); the user row the API knows stays, without e-mail and name, so what the person left on
-- memorials keeps its references and is shown as from "een voormalig lid". A token of a deleted user is
-- refused (lib/auth.ts).
ALTER TABLE users ADD COLUMN deleted_at timestamptz;

-- A memorial whose only member deleted their account: archived (read-only, shown to nobody) and removed,
-- with its media, by a scheduled job once this moment has passed.
ALTER TABLE memorials ADD COLUMN remove_after timestamptz;
