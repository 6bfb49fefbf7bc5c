import type { CompanyRequest, CompanyResponse } from '@aandenken/contract';
import type { Queryable } from '../../db/client.ts';

interface CompanyRow {
  id: string;
  status: CompanyResponse['status'];
  company_type: CompanyResponse['companyType'];
  company_name: string;
  first_name: string;
  last_name: string;
  street_name: string;
  house_number: string;
  postal_code: string;
  phone_number: string;
  email: string;
  service_description: string | null;
  additional_info: string | null;
  created_at: Date | string;
  [key: string]: unknown;
}

const toCompany = (r: CompanyRow): CompanyResponse => ({
  id: r.id,
  status: r.status,
  companyType: r.company_type,
  companyName: r.company_name,
  firstName: r.first_name,
  lastName: r.last_name,
  streetName: r.street_name,
  houseNumber: r.house_number,
  postalCode: r.postal_code,
  phoneNumber: r.phone_number,
  email: r.email,
  serviceDescription: r.service_description,
  additionalInfo: r.additional_info,
  createdAt: new Date(r.created_at).toISOString(),
});

export function companyRepository(db: Queryable) {
  return {
    async insert(req: CompanyRequest): Promise<CompanyResponse> {
      const { rows } = await db.query<CompanyRow>(
        `INSERT INTO company_requests (company_type, company_name, first_name, last_name, street_name,
           house_number, postal_code, phone_number, email, service_description, additional_info, extra_info)
         VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12) RETURNING *`,
        [
          req.companyType,
          req.companyName,
          req.firstName,
          req.lastName,
          req.streetName,
          req.houseNumber,
          req.postalCode.toUpperCase().replace(/\s+/, ' '),
          req.phoneNumber,
          req.email.toLowerCase(),
          req.companyType === 'OtherServiceProvider' ? (req.serviceDescription ?? null) : null,
          req.additionalInfo || null,
          req.extraInfo || null,
        ],
      );
      return toCompany(rows[0]!);
    },
    async findById(id: string): Promise<CompanyResponse | undefined> {
      const { rows } = await db.query<CompanyRow>('SELECT * FROM company_requests WHERE id = $1', [id]);
      return rows[0] ? toCompany(rows[0]) : undefined;
    },
  };
}
