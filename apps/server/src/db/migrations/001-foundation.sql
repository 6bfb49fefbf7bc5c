
CREATE TABLE company_requests (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  status text NOT NULL DEFAULT 'pending',
  company_type text NOT NULL,
  company_name text NOT NULL,
  first_name text NOT NULL,
  last_name text NOT NULL,
  street_name text NOT NULL,
  house_number text NOT NULL,
  postal_code text NOT NULL,
  phone_number text NOT NULL,
  email text NOT NULL,
  service_description text,
  additional_info text,
  extra_info text,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT company_requests_status_check CHECK (status IN ('pending', 'approved', 'rejected')),
  CONSTRAINT company_requests_type_check CHECK (company_type IN ('FuneralDirector', 'Crematorium',
    'FuneralInsurer', 'GriefCounselor', 'MonumentMaker', 'OtherServiceProvider')),
  CONSTRAINT company_requests_name_not_blank CHECK (length(btrim(company_name)) > 0),
  CONSTRAINT company_requests_other_needs_description CHECK (
    company_type <> 'OtherServiceProvider' OR length(btrim(coalesce(service_description, ''))) > 0)
);
CREATE INDEX company_requests_created_at_idx ON company_requests (created_at DESC);

CREATE TABLE contact_messages (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL,
  email text NOT NULL,
  subject text NOT NULL,
  message text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT contact_messages_subject_check CHECK (subject IN ('memorial-pages', 'become-partner',
    'technical-support', 'general'))
);
