import fs from 'node:fs';
import path from 'node:path';
import {
  base64UrlBytes,
  canonicalText,
  credentialPath,
  parseVcParam,
  schemeSignedFields,
  trainingSignedFields,
} from './credential';

describe('credential contract', () => {
  it('writes the canonical text number|name|standard|issue|expiry, training with an empty expiry', () => {
    expect(
      canonicalText(
        schemeSignedFields({
          cert_number: 'QMS/2024/001',
          name: 'PT Maju Bersama',
          standard: 'ISO 9001:2015',
          issue_date: '2024-03-05',
          expired_date: '2027-03-05',
        }),
      ),
    ).toBe('QMS/2024/001|PT Maju Bersama|ISO 9001:2015|2024-03-05|2027-03-05');
    expect(
      canonicalText(
        trainingSignedFields({
          certificate_number: 'TRN/1',
          name: 'Siti',
          training: 'K3',
          date: '2024-07-15',
        }),
      ),
    ).toBe('TRN/1|Siti|K3|2024-07-15|');
    expect(canonicalText({ number: 'a\\b', name: 'c|d', standard: '', issue: '', expiry: '' })).toBe(
      'a\\\\b|c\\|d|||',
    );
  });

  it('reads a vc parameter: a base64url kid without a dot, then an 86-character signature', () => {
    const sig = 'A'.repeat(86);
    expect(parseVcParam(`k1_-.${sig}`)).toEqual({ kid: 'k1_-', signature: sig });
    for (const bad of [null, '', sig, `.${sig}`, `k.${sig}x`, `k+.${sig}`, `k.${'A'.repeat(85)}=`])
      expect(parseVcParam(bad)).toBeNull();
  });

  it('decodes base64url without padding, and refuses other characters', () => {
    expect(Array.from(base64UrlBytes('_-8')!)).toEqual([255, 239]);
    expect(base64UrlBytes('a+b')).toBeNull();
  });

  it('names the credential path with each / of the number as +', () => {
    expect(credentialPath('training', 'TRN/HSE 1')).toBe('/api/credential/training/TRN+HSE%201');
  });

  it('is plain string code: imports only public.ts of ours, nothing from npm (the public page uses it)', () => {
    const text = fs.readFileSync(path.join(__dirname, 'credential.ts'), 'utf8');
    expect([...text.matchAll(/from\s+'([^']+)'/g)].map((m) => m[1])).toEqual(['./public']);
  });
});
