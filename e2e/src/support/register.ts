/**
 * A certification body's register made through the API as staff would, before a scenario drives the
 * browser: the body (a company), one certification type, optionally an accreditation body, one client
 * and its ACTIVE schemes of that type.
 */
import { type apiCaller, form } from './api';
import { logoPng } from './png';

type Api = ReturnType<typeof apiCaller>;

export interface CompanyOptions {
  name: string;
  website: string;
  /** The public check offers the certificate PDF, drawn with the company's certificate logo and signature. */
  publicDownload?: boolean;
}

export interface RegisterOptions {
  company: CompanyOptions;
  /** The certification type (category ISO, with an icon): its code, and its name (ISO 9001:2015 unless given). */
  type: { code: string; name?: string };
  /** An accreditation body (with an icon) that accredits every scheme; without it none is accredited. */
  accredited?: { name: string; acronym?: string };
  /** The client: its name, register number and region, and what its certificate prints or its audits need. */
  client: {
    name: string;
    certificate_number: string;
    region: string;
    address?: string;
    scope?: string;
    ea_code?: string;
    employees_number?: number;
  };
  /** The ACTIVE schemes' certificate numbers, each valid three years from `issue_date` (YYYY-MM-DD). */
  schemes: string[];
  issue_date: string;
}

export interface Register {
  companyId: string;
  typeId: string;
  clientId: string;
  accreditedId?: string;
  /** The schemes' ids, in the order of `schemes`. */
  schemeIds: string[];
}

/** A certification body (company), as 'Tambah Perusahaan' makes it; its id. */
export async function makeCompany(api: Api, company: CompanyOptions): Promise<string> {
  const images: Record<string, string | Buffer> = company.publicDownload
    ? { public_certificate_download: 'true', logo_cert_file: logoPng(160), ttd_cert_file: logoPng(120) }
    : {};
  const made = await api(
    'POST',
    '/api/company',
    form({ name: company.name, website: company.website, ...images }),
  );
  return String(made.id);
}

/** Leaves out the options not given (the API takes an absent field, not an empty one). */
const given = (fields: Record<string, string | undefined>): Record<string, string> =>
  Object.fromEntries(Object.entries(fields).filter((e): e is [string, string] => e[1] !== undefined));

export async function makeRegister(api: Api, options: RegisterOptions): Promise<Register> {
  const companyId = await makeCompany(api, options.company);
  const type = await api(
    'POST',
    '/api/certification',
    form({
      company_id: companyId,
      name: options.type.name ?? 'ISO 9001:2015',
      category: 'ISO',
      code: options.type.code,
      position: '1',
      icon_file: logoPng(64),
    }),
  );
  const accredited = options.accredited
    ? await api(
        'POST',
        '/api/accredited',
        form({
          company_id: companyId,
          ...given({ name: options.accredited.name, acronym: options.accredited.acronym }),
          icon_file: logoPng(64),
        }),
      )
    : undefined;
  const { employees_number, ...client } = options.client;
  const made = await api(
    'POST',
    '/api/company-certificate',
    form({
      company_id: companyId,
      ...given({ ...client, employees_number: employees_number?.toString() }),
    }),
  );
  const schemeIds: string[] = [];
  for (const certNumber of options.schemes) {
    const scheme = await api('POST', '/api/company-certificate-scheme', {
      certificate_id: made.id,
      certification_id: type.id,
      cert_number: certNumber,
      status: 'ACTIVE',
      issue_date: options.issue_date,
      valid_for: 3,
      valid_for_type: 'YEAR',
      ...(accredited ? { is_accredited: 'true', accredited_id: accredited.id } : { is_accredited: 'false' }),
    });
    schemeIds.push(String(scheme.id));
  }
  return {
    companyId,
    typeId: String(type.id),
    clientId: String(made.id),
    ...(accredited ? { accreditedId: String(accredited.id) } : {}),
    schemeIds,
  };
}
