-- Issue 14, the partner portal: a company's colleagues (invited by e-mail) and the memorial pages a
-- company made for a family (handed over by an owner invitation; the family decides about the partner).

-- Invitations to become a user of a company. Claimed (like the first user's claim_email) when an
-- account with that address, verified, calls GET /core/account/roles; ended by the administrator.
CREATE TABLE company_invitations (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  company_id uuid NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
  email text NOT NULL,
  invited_by text REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  CONSTRAINT company_invitations_email_lower CHECK (email = lower(email) AND length(btrim(email)) > 0)
);
CREATE UNIQUE INDEX company_invitations_company_email_key ON company_invitations (company_id, email);
CREATE INDEX company_invitations_email_idx ON company_invitations (email);

-- The family's invitation to take ownership is a guest invite with the role owner (only made here).
ALTER TABLE guest_invites DROP CONSTRAINT guest_invites_role_check;
ALTER TABLE guest_invites
  ADD CONSTRAINT guest_invites_role_check CHECK (role IN ('owner', 'editor', 'contributor', 'guest'));

-- A memorial a company made for a family. While `waiting`, the company's users manage it (the partner
-- role); once the family accepted (`handed_over`) only when `partner_role_allowed`. `shown_publicly`:
-- the family agrees to "Verzorgd door {company}" on the page and the page on the company's public page.
-- Partner rights also need the company active and the user in company_users (checked on every call).
CREATE TABLE memorial_care (
  memorial_id uuid PRIMARY KEY REFERENCES memorials (id) ON DELETE CASCADE,
  company_id uuid NOT NULL REFERENCES companies (id) ON DELETE CASCADE,
  created_by text REFERENCES users (id) ON DELETE SET NULL,
  family_email text NOT NULL,
  invite_id uuid REFERENCES guest_invites (id) ON DELETE SET NULL,
  state text NOT NULL DEFAULT 'waiting',
  partner_role_allowed boolean NOT NULL DEFAULT false,
  shown_publicly boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  accepted_at timestamptz,
  accepted_by text REFERENCES users (id) ON DELETE SET NULL,
  CONSTRAINT memorial_care_state_check CHECK (state IN ('waiting', 'handed_over')),
  CONSTRAINT memorial_care_accepted CHECK ((state = 'handed_over') = (accepted_at IS NOT NULL))
);
CREATE INDEX memorial_care_company_idx ON memorial_care (company_id, created_at DESC);
CREATE UNIQUE INDEX memorial_care_invite_key ON memorial_care (invite_id) WHERE invite_id IS NOT NULL;

-- "Verzorgd door" is part of what a memorial shows: a change to the care row, or to the company's name,
-- slug or state, drops the cached public reads of its pages (090-memorial-change-notify.sql).
CREATE TRIGGER memorial_care_notify_changed AFTER INSERT OR UPDATE OR DELETE ON memorial_care
  FOR EACH ROW EXECUTE FUNCTION notify_memorial_changed();

CREATE FUNCTION notify_company_pages_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  memorial uuid;
BEGIN
  IF OLD.name IS DISTINCT FROM NEW.name OR OLD.slug IS DISTINCT FROM NEW.slug
     OR OLD.state IS DISTINCT FROM NEW.state THEN
    FOR memorial IN SELECT mc.memorial_id FROM memorial_care mc WHERE mc.company_id = NEW.id LOOP
      PERFORM pg_notify('memorial_changed', memorial::text);
    END LOOP;
  END IF;
  RETURN NULL;
END;
$$;
CREATE TRIGGER companies_notify_pages_changed AFTER UPDATE ON companies
  FOR EACH ROW EXECUTE FUNCTION notify_company_pages_changed();
