-- Issue 16, items 1 and 2 (docs/funeral-day.md): the services of the funeral day shown on the memorial page
-- and the RSVPs for the koffietafel or gathering after one of them.

-- A service on a memorial. Date and times are wall-clock times in Europe/Amsterdam.
CREATE TABLE memorial_services (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  memorial_id uuid NOT NULL REFERENCES memorials (id) ON DELETE CASCADE,
  kind text NOT NULL,
  service_date date NOT NULL,
  starts_at time NOT NULL,
  ends_at time,
  place_name text NOT NULL,
  address text NOT NULL,
  programme text,
  -- Shown to visitors from the service's day onwards (set by owners and editors; the partner role is an editor).
  livestream_url text,
  after_text text,
  rsvp_open boolean NOT NULL DEFAULT false,
  -- NULL: RSVPs close when the service starts.
  rsvp_closes_at timestamptz,
  created_by text REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT memorial_services_kind_check CHECK (kind IN ('uitvaart', 'afscheid', 'crematie', 'herdenking')),
  CONSTRAINT memorial_services_times CHECK (ends_at IS NULL OR ends_at > starts_at)
);
CREATE INDEX memorial_services_memorial_idx ON memorial_services (memorial_id, service_date, starts_at);

-- The services are part of what the memorial page shows: a change drops its cached reads (090).
CREATE TRIGGER memorial_services_notify_changed AFTER INSERT OR UPDATE OR DELETE ON memorial_services
  FOR EACH ROW EXECUTE FUNCTION notify_memorial_changed();

-- A visitor's RSVP, without an account. Only owners and editors see these (never on the public page, so
-- no cache notification).
CREATE TABLE service_rsvps (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  service_id uuid NOT NULL REFERENCES memorial_services (id) ON DELETE CASCADE,
  name text NOT NULL,
  people int NOT NULL,
  note text,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT service_rsvps_people CHECK (people BETWEEN 1 AND 20)
);
CREATE INDEX service_rsvps_service_idx ON service_rsvps (service_id, created_at);

-- The daily summary mail: when it last went for a service (it goes once a day while there are new RSVPs).
CREATE TABLE service_rsvp_summaries (
  service_id uuid PRIMARY KEY REFERENCES memorial_services (id) ON DELETE CASCADE,
  sent_at timestamptz NOT NULL
);
