/**
 * The signature check of the public pages (docs/rules.md#signed-certificates): a QR's `vc`, signed here with Node's own
 * Ed25519, checked by the page with Web Crypto against the record it shows and the published keys.
 */
import { generateKeyPairSync, sign, webcrypto } from 'node:crypto';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  canonicalText,
  schemeSignedFields,
  trainingSignedFields,
} from '@sertifikasi/shared-contracts/credential';
import type { CompanyCheck, TrainingCheck } from '@sertifikasi/shared-contracts/public';
import { verifySignature } from '../features/check/verify';
import { screens } from '../routes';

const CompanyPage = screens['/check-certification-company'];
const TrainingPage = screens['/check-certification-training'];

const { publicKey, privateKey } = generateKeyPairSync('ed25519');
const KID = 'k1Test_-';
const JWKS = {
  keys: [
    {
      kty: 'OKP',
      crv: 'Ed25519',
      x: publicKey.export({ format: 'jwk' }).x,
      kid: KID,
      alg: 'EdDSA',
      use: 'sig',
    },
  ],
};
const vcOf = (text: string, key = privateKey, kid = KID) =>
  `${kid}.${sign(null, Buffer.from(text, 'utf8'), key).toString('base64url')}`;

const ACTIVE: CompanyCheck = {
  cert_number: 'QMS/2024/001',
  name: 'PT Maju Bersama',
  address: null,
  scope: null,
  ea_code: null,
  standard: 'ISO 9001:2015',
  accreditation: null,
  issue_date: '2024-03-05',
  original_issue_date: null,
  expired_date: '2027-03-05',
  surveillance_date: null,
  status: 'ACTIVE',
  desc: null,
  simple_dates: true,
  public_certificate_download: false,
  download_id: null,
  history: [],
  on: null,
};
const TRAINING: TrainingCheck = {
  name: 'Siti Nurhaliza',
  certificate_number: 'TRN/HSE/2024/07',
  training: 'Ahli K3 Umum',
  location: 'Bandung',
  date: '2024-07-15',
};

let asked: string[] = [];
function fakeApi(record: object) {
  asked = [];
  globalThis.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const url = input instanceof Request ? input.url : input.toString();
    asked.push(url);
    return Response.json(url.includes('jwks') ? JWKS : record);
  }) as typeof fetch;
}
const open = (page: string, cert: string, vc?: string) =>
  window.history.replaceState(null, '', `${page}?cert=${encodeURIComponent(cert)}${vc ? `&vc=${vc}` : ''}`);

// jsdom has no Web Crypto: the browser's is stood in for by Node's (the same W3C API).
Object.defineProperty(globalThis, 'crypto', { value: webcrypto, configurable: true });
beforeEach(() => window.localStorage.clear());

describe('verifySignature', () => {
  const fields = schemeSignedFields(ACTIVE);
  const keys = async () => JWKS.keys as never;
  it('is valid for the signature of the record, and not for other data, another key or a malformed vc', async () => {
    expect(await verifySignature(vcOf(canonicalText(fields)), fields, keys)).toBe('valid');
    expect(await verifySignature(vcOf(canonicalText(fields)), { ...fields, name: 'PT Lain' }, keys)).toBe(
      'mismatch',
    );
    const other = generateKeyPairSync('ed25519').privateKey;
    expect(await verifySignature(vcOf(canonicalText(fields), other), fields, keys)).toBe('mismatch');
    expect(await verifySignature(vcOf(canonicalText(fields), privateKey, 'unknown'), fields, keys)).toBe(
      'mismatch',
    );
    expect(await verifySignature('nonsense', fields, keys)).toBe('mismatch');
  });
  it('asks for the keys once more past the cache when the kid is not among them (a rotation)', async () => {
    const asked: boolean[] = [];
    const rotated = async (fresh: boolean) => {
      asked.push(fresh);
      return (fresh ? JWKS.keys : []) as never;
    };
    expect(await verifySignature(vcOf(canonicalText(fields)), fields, rotated)).toBe('valid');
    expect(asked).toEqual([false, true]);
  });
  it('says it could not check when the keys cannot be fetched', async () => {
    const failing = async () => Promise.reject(new Error('offline'));
    expect(await verifySignature(vcOf(canonicalText(fields)), fields, failing)).toBe('unchecked');
  });
  it('says it could not check in a browser without Web Crypto Ed25519', async () => {
    const importKey = jest
      .spyOn(webcrypto.subtle, 'importKey')
      .mockRejectedValueOnce(new Error('NotSupportedError'));
    expect(await verifySignature(vcOf(canonicalText(fields)), fields, keys)).toBe('unchecked');
    importKey.mockRestore();
  });
});

describe('the pages opened from a signed QR', () => {
  it('company page: the verdict for a valid signature, in the page language, and Download Credential', async () => {
    fakeApi(ACTIVE);
    open('/check-certification-company', 'QMS/2024/001', vcOf(canonicalText(schemeSignedFields(ACTIVE))));
    render(<CompanyPage />);
    expect(await screen.findByText('Digital signature valid')).toBeInTheDocument();
    expect(asked).toContain('/.well-known/jwks.json');
    const link = screen.getByRole('link', { name: 'Download Credential' });
    expect(link).toHaveAttribute('href', '/api/credential/company/QMS+2024+001');
    expect(link).toHaveAttribute('download', 'QMS_2024_001.vc.jwt');
    await userEvent.click(screen.getByRole('button', { name: 'Bahasa Indonesia' }));
    expect(screen.getByText('Tanda tangan digital valid')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Unduh Kredensial' })).toBeInTheDocument();
  });

  it('training page: a QR signed over other data does not match', async () => {
    fakeApi(TRAINING);
    const forged = canonicalText({ ...trainingSignedFields(TRAINING), name: 'Orang Lain' });
    open('/check-certification-training', 'TRN/HSE/2024/07', vcOf(forged));
    render(<TrainingPage />);
    expect(
      await screen.findByText('Tanda tangan digital tidak cocok dengan data sertifikat'),
    ).toBeInTheDocument();
    expect(screen.queryByText('Tanda tangan digital valid')).not.toBeInTheDocument();
  });

  it('no vc: no verdict, no key fetched, the credential still offered', async () => {
    fakeApi(TRAINING);
    open('/check-certification-training', 'TRN/HSE/2024/07');
    render(<TrainingPage />);
    expect(await screen.findByRole('link', { name: 'Unduh Kredensial' })).toHaveAttribute(
      'href',
      '/api/credential/training/TRN+HSE+2024+07',
    );
    expect(screen.queryByText(/Tanda tangan digital/)).not.toBeInTheDocument();
    expect(asked.some((u) => u.includes('jwks'))).toBe(false);
  });
});
