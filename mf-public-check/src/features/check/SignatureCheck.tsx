import { useEffect, useState } from 'react';
import {
  type CredentialKind,
  credentialPath,
  type SignedFields,
} from '@sertifikasi/shared-contracts/credential';
import { SIGNATURE_STRINGS } from '../../i18n/signature';
import type { Lang } from './language';
import { signedAddress, type Verdict, verifySignature } from './verify';

const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

const VERDICT_CLASS: Record<Verdict, string> = { valid: 'pc-ok', mismatch: 'pc-bad', unchecked: 'pc-error' };

/**
 * The verdict on the QR code's signature, when the page was opened from a signed QR (`&vc=`) of the
 * record it shows ('Tanda tangan digital valid', or that it does not match the certificate's data);
 * nothing otherwise.
 */
export function SignatureVerdict({ fields, lang }: { fields: SignedFields; lang: Lang }) {
  const t = SIGNATURE_STRINGS[lang];
  const [address] = useState(signedAddress);
  // Only the record the QR code named: another number typed later has no signature to check.
  const vc = address && same(address.cert, fields.number) ? address.vc : null;
  const [verdict, setVerdict] = useState<Verdict | null>(null);
  const { number, name, standard, issue, expiry } = fields;

  useEffect(() => {
    if (!vc) return;
    let current = true;
    setVerdict(null);
    void verifySignature(vc, { number, name, standard, issue, expiry }).then((v) => {
      if (current) setVerdict(v);
    });
    return () => {
      current = false;
    };
  }, [vc, number, name, standard, issue, expiry]);

  if (!vc) return null;
  return (
    <p className={`pc-box ${verdict ? VERDICT_CLASS[verdict] : ''}`} data-verdict={verdict ?? 'checking'}>
      <strong>{verdict ? t[verdict] : t.checking}</strong>
    </p>
  );
}

/** A file name for the downloaded credential: the number, each `/` and `\` as `_`. */
const fileName = (number: string) => `${number.replace(/[/\\]/g, '_')}.vc.jwt`;

/** 'Unduh Kredensial': the certificate's W3C Verifiable Credential (VC-JWT), to verify anywhere. */
export function CredentialDownload({
  kind,
  number,
  lang,
}: {
  kind: CredentialKind;
  number: string;
  lang: Lang;
}) {
  return (
    <div className="pc-actions">
      <a className="pc-download" href={credentialPath(kind, number)} download={fileName(number)}>
        {SIGNATURE_STRINGS[lang].download}
      </a>
    </div>
  );
}
