import { NO_SCHEME_REFS, schemePublicFields } from './scheme-public';

const scheme = {
  id: '0b6f5c1e-5f0e-4a43-9a3f-2f3f8c4f3a11',
  cert_number: 'QMS/001',
  status: 'ACTIVE',
  issue_date: '2024-01-10',
  expired_date: '2027-01-09',
  surveillance_date: '2025-01-10',
  is_accredited: true,
  description: 'Catatan internal',
};
const refs = {
  name: 'PT Maju',
  address: 'Jl. Merdeka 1',
  scope: 'Manufaktur',
  ea_code: '17',
  standard: 'ISO 9001:2015',
  accreditation: 'KAN',
};

describe('schemePublicFields', () => {
  it('answers the public fields in one order, the id first', () => {
    expect(Object.keys(schemePublicFields(scheme, refs, '2025-06-01'))).toEqual([
      'id',
      'cert_number',
      'name',
      'address',
      'scope',
      'ea_code',
      'standard',
      'accreditation',
      'issue_date',
      'expired_date',
      'surveillance_date',
      'status',
      'description',
    ]);
  });

  it('hides the description of an ACTIVE scheme and shows the accreditation of an accredited one', () => {
    const fields = schemePublicFields(scheme, refs, '2025-06-01');
    expect(fields).toMatchObject({
      status: 'ACTIVE',
      description: null,
      accreditation: 'KAN',
      name: 'PT Maju',
    });
  });

  it('says EXPIRED from the day after the expiry date, with the description that explains it', () => {
    expect(schemePublicFields(scheme, refs, '2027-01-09')).toMatchObject({
      status: 'ACTIVE',
      description: null,
    });
    expect(schemePublicFields(scheme, refs, '2027-01-10')).toMatchObject({
      status: 'EXPIRED',
      description: 'Catatan internal',
    });
  });

  it('shows no accreditation body for a scheme that is not accredited', () => {
    const fields = schemePublicFields(
      { ...scheme, is_accredited: false, status: 'SUSPENDED' },
      refs,
      '2025-06-01',
    );
    expect(fields).toMatchObject({
      status: 'SUSPENDED',
      accreditation: null,
      description: 'Catatan internal',
    });
  });

  it('answers null references when none were found', () => {
    const fields = schemePublicFields(scheme, NO_SCHEME_REFS, '2025-06-01');
    expect(fields).toMatchObject({ name: null, standard: null, accreditation: null, cert_number: 'QMS/001' });
  });
});
