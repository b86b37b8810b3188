/**
 * A scheme's public fields, shaped once (docs/rules.md#public-check): what the public check answers
 * of a scheme and what a webhook's scheme event carries (docs/rules.md#notifications) are these
 * fields; each wire format then names them its own way (the check's `desc`, a number never null).
 * How the references are read is the caller's: the check reads them with the scheme in one
 * statement, the webhooks for a batch of writes at once.
 */
import { effectiveStatus, type SchemeStatus } from '@sertifikasi/shared-contracts';
import type { CompanyCheck } from '@sertifikasi/shared-contracts/public';

/** What a scheme's public fields read of its client, type and accreditation body. */
export type SchemeRefs = Pick<
  CompanyCheck,
  'name' | 'address' | 'scope' | 'ea_code' | 'standard' | 'accreditation'
>;

/** References, any of which may be unknown (null). */
type SchemeRefsOrNull = { [K in keyof SchemeRefs]: SchemeRefs[K] | null };

/** No references found (a client or a type that is gone): every field null. */
export const NO_SCHEME_REFS: SchemeRefsOrNull = {
  name: null,
  address: null,
  scope: null,
  ea_code: null,
  standard: null,
  accreditation: null,
};

/** What the public fields read of the scheme itself. */
export interface SchemePublicSource {
  id: string;
  cert_number: string | null;
  /** The stored status (a SchemeStatus). */
  status: string;
  issue_date: string;
  expired_date: string;
  surveillance_date: string | null;
  is_accredited: boolean;
  description: string | null;
}

/**
 * The public fields of a scheme on `today`, in this order: the status is the effective one (an
 * ACTIVE scheme past its expiry is EXPIRED), the accreditation only when the scheme is accredited,
 * and the description only when the status is not ACTIVE (it explains that status).
 */
export function schemePublicFields<R extends SchemeRefsOrNull>(
  scheme: SchemePublicSource,
  refs: R,
  today: string,
) {
  const status = effectiveStatus(scheme.status as SchemeStatus, scheme.expired_date, today);
  return {
    id: scheme.id,
    cert_number: scheme.cert_number,
    name: refs.name as R['name'],
    address: refs.address as R['address'],
    scope: refs.scope as R['scope'],
    ea_code: refs.ea_code as R['ea_code'],
    standard: refs.standard as R['standard'],
    accreditation: scheme.is_accredited ? (refs.accreditation as R['accreditation']) : null,
    issue_date: scheme.issue_date,
    expired_date: scheme.expired_date,
    surveillance_date: scheme.surveillance_date,
    status,
    description: status === 'ACTIVE' ? null : scheme.description,
  };
}
