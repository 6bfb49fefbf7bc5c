import type {
  CompanyPrice,
  CompanyProfile,
  CompanyProfileInput,
  Directory,
  PostcodeRange,
  PublicCompany,
} from '@aandenken/contract';
import type { Queryable } from '../../db/client.ts';

export interface LogoVariant {
  name: string;
  width: number;
  height: number;
}

interface ProfileRow {
  id: string;
  slug: string;
  state: 'active' | 'suspended';
  name: string;
  company_type: CompanyProfile['companyType'];
  street_name: string;
  house_number: string;
  postal_code: string;
  city: string | null;
  phone_number: string;
  email: string;
  website: string | null;
  description: string | null;
  logo_id: string | null;
  logo_variants: LogoVariant[];
  prices: CompanyPrice[];
  work_municipalities: string[];
  work_postcode_ranges: PostcodeRange[];
  updated_at: Date | string;
  [key: string]: unknown;
}

/** How a stored logo is shown: URLs per size, built by the service (they carry the API's address). */
export type LogoUrls = (logoId: string, variants: LogoVariant[]) => CompanyProfile['logo'];

const COLUMNS = `id, slug, state, name, company_type, street_name, house_number, postal_code, city, phone_number,
  email, website, description, logo_id, logo_variants, prices, work_municipalities, work_postcode_ranges, updated_at`;

export function profileFromRow(r: ProfileRow, logo: LogoUrls): CompanyProfile {
  return {
    id: r.id,
    slug: r.slug,
    state: r.state,
    name: r.name,
    companyType: r.company_type,
    streetName: r.street_name,
    houseNumber: r.house_number,
    postalCode: r.postal_code,
    city: r.city,
    phoneNumber: r.phone_number,
    email: r.email,
    website: r.website,
    description: r.description,
    logo: r.logo_id ? logo(r.logo_id, r.logo_variants) : null,
    prices: r.prices,
    workArea: { municipalities: r.work_municipalities, postcodeRanges: r.work_postcode_ranges },
    updatedAt: new Date(r.updated_at).toISOString(),
  };
}

export function publicFromProfile(
  p: CompanyProfile,
  caredPages: PublicCompany['caredPages'] = [],
): PublicCompany {
  return {
    slug: p.slug,
    name: p.name,
    companyType: p.companyType,
    streetName: p.streetName,
    houseNumber: p.houseNumber,
    postalCode: p.postalCode,
    city: p.city,
    phoneNumber: p.phoneNumber,
    email: p.email,
    website: p.website,
    description: p.description,
    logo: p.logo,
    prices: p.prices,
    workArea: p.workArea,
    caredPages,
  };
}

export function companyProfileRepository(db: Queryable) {
  return {
    async findById(id: string, lock = false) {
      const { rows } = await db.query<ProfileRow>(
        `SELECT ${COLUMNS} FROM companies WHERE id = $1${lock ? ' FOR UPDATE' : ''}`,
        [id],
      );
      return rows[0];
    },
    async findActiveBySlug(slug: string) {
      const { rows } = await db.query<ProfileRow>(
        `SELECT ${COLUMNS} FROM companies WHERE slug = $1 AND state = 'active'`,
        [slug],
      );
      return rows[0];
    },
    /** The caller's membership of this company: undefined when none, else the company's state. */
    async membership(companyId: string, userId: string) {
      const { rows } = await db.query<{ state: 'active' | 'suspended'; is_admin: boolean }>(
        `SELECT c.state, u.is_admin FROM company_users u JOIN companies c ON c.id = u.company_id
          WHERE u.company_id = $1 AND u.user_id = $2`,
        [companyId, userId],
      );
      return rows[0];
    },
    async update(id: string, p: CompanyProfileInput) {
      await db.query(
        `UPDATE companies SET name = $2, company_type = $3, street_name = $4, house_number = $5, postal_code = $6,
           city = $7, phone_number = $8, email = $9, website = $10, description = $11, prices = $12,
           work_municipalities = $13, work_postcode_ranges = $14, updated_at = now()
         WHERE id = $1`,
        [
          id,
          p.name,
          p.companyType,
          p.streetName,
          p.houseNumber,
          p.postalCode,
          p.city,
          p.phoneNumber,
          p.email,
          p.website || null,
          p.description || null,
          JSON.stringify(p.prices),
          p.workArea.municipalities,
          JSON.stringify(p.workArea.postcodeRanges),
        ],
      );
    },
    async setLogo(id: string, logoId: string | null, variants: LogoVariant[]) {
      await db.query(
        'UPDATE companies SET logo_id = $2, logo_variants = $3, updated_at = now() WHERE id = $1',
        [id, logoId, JSON.stringify(variants)],
      );
    },
    /** The logo's variant when its company is active (a suspended company's logo is not served). */
    async activeLogo(logoId: string) {
      const { rows } = await db.query<{ logo_variants: LogoVariant[] }>(
        `SELECT logo_variants FROM companies WHERE logo_id = $1 AND state = 'active'`,
        [logoId],
      );
      return rows[0]?.logo_variants;
    },
    /**
     * Active companies, by name: all of them, or those working in one of `municipalities` or whose postcode
     * ranges hold `postcode`.
     */
    async directory(
      filter: { municipalities: string[]; postcode: number | null } | null,
      limit: number,
      logo: LogoUrls,
    ): Promise<Directory['items']> {
      const where = filter
        ? `AND (work_municipalities && $2::text[] OR EXISTS (
             SELECT 1 FROM jsonb_array_elements(work_postcode_ranges) r
              WHERE $3::int BETWEEN (r ->> 'from')::int AND (r ->> 'to')::int))`
        : '';
      const { rows } = await db.query<ProfileRow>(
        `SELECT ${COLUMNS} FROM companies WHERE state = 'active' ${where}
          ORDER BY lower(name), id LIMIT $1`,
        filter ? [limit, filter.municipalities, filter.postcode] : [limit],
      );
      return rows.map((r) => ({
        slug: r.slug,
        name: r.name,
        companyType: r.company_type,
        city: r.city,
        description: r.description,
        logo: r.logo_id ? logo(r.logo_id, r.logo_variants) : null,
      }));
    },
  };
}
