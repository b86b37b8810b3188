/**
 * The W3C Verifiable Credential 2.0 of a certificate (docs/rules.md#signed-certificates), secured as a compact
 * JWS by services/signing.ts. Public fields only, written here by name (nothing else of the record
 * can slip in); no status: the credential proves what was issued, `credentialStatus` points at the
 * public check that says whether it still holds. The same record and key give the same bytes
 * (Ed25519 is deterministic), so the answer's ETag is stable.
 */
import { checkPathNumber } from '@sertifikasi/shared-contracts/public';
import type { Config } from '../../config';
import type { PublicSchemeRow, PublicTrainingRow } from '../public-check/public-check.repository';
import type { Clock } from '../../lib/clock';
import { compactJws, type SigningKey } from '../../services/signing';
import { type CredentialKind, credentialPath } from '@sertifikasi/shared-contracts/credential';

const VC_CONTEXT = 'https://www.w3.org/ns/credentials/v2';

/** The start and the end of a day in the deployment's time zone, as XML Schema dateTimeStamps. */
const startOf = (day: string, clock: ZoneClock) => `${day}T00:00:00${clock.zoneOffset(day)}`;
const endOf = (day: string, clock: ZoneClock) => `${day}T23:59:59${clock.zoneOffset(day)}`;

const CHECK_API: Record<CredentialKind, string> = {
  company: '/api/check-certificate-company/',
  training: '/api/check-certificate-training/',
};

/** The parts both kinds share: context, id, issuer, credentialStatus (the public check of the number). */
function envelope(
  config: Pick<Config, 'publicBaseUrl'>,
  kind: CredentialKind,
  number: string,
  issuer: string,
) {
  const base = config.publicBaseUrl;
  return {
    '@context': [VC_CONTEXT],
    id: `${base}${credentialPath(kind, number)}`,
    type: ['VerifiableCredential', kind === 'company' ? 'CertificationCredential' : 'TrainingCredential'],
    issuer: { id: base, name: issuer },
    credentialStatus: {
      id: `${base}${CHECK_API[kind]}${checkPathNumber(number)}`,
      type: 'PublicCertificateCheck',
    },
  };
}

type Settings = Pick<Config, 'publicBaseUrl'>;
type ZoneClock = Pick<Clock, 'zoneOffset'>;

/** A scheme's credential: valid from its issue date through its expiry date. */
export function schemeCredential(
  key: SigningKey,
  config: Settings,
  clock: ZoneClock,
  row: PublicSchemeRow,
  issuer: string,
): string {
  const number = row.cert_number ?? '';
  const base = envelope(config, 'company', number, issuer);
  return compactJws(key, {
    '@context': base['@context'],
    id: base.id,
    type: base.type,
    issuer: base.issuer,
    validFrom: startOf(row.issue_date, clock),
    validUntil: endOf(row.expired_date, clock),
    credentialSubject: {
      certificateNumber: number,
      name: row.name,
      standard: row.standard,
      scope: row.scope,
      accreditation: row.is_accredited ? row.accreditation : null,
    },
    credentialStatus: base.credentialStatus,
  });
}

/** A training certificate's credential: valid from the training's date (no expiry). */
export function trainingCredential(
  key: SigningKey,
  config: Settings,
  clock: ZoneClock,
  row: PublicTrainingRow,
  issuer: string,
): string {
  const base = envelope(config, 'training', row.certificate_number, issuer);
  return compactJws(key, {
    '@context': base['@context'],
    id: base.id,
    type: base.type,
    issuer: base.issuer,
    validFrom: startOf(row.date, clock),
    credentialSubject: {
      certificateNumber: row.certificate_number,
      name: row.name,
      training: row.training,
      location: row.location,
    },
    credentialStatus: base.credentialStatus,
  });
}
