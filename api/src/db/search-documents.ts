import { clientCertificates, schemes, trainingCertificates } from './schema';
import { searchDocument } from './search';

/**
 * The search documents of the registers the reports and the audit schedule search, built as their
 * trigram indexes in schema.ts are (`searchIndex`), so that the indexes serve them.
 */
export const clientSearch = searchDocument([
  clientCertificates.name,
  clientCertificates.certificate_number,
  clientCertificates.region,
]);
export const schemeSearch = searchDocument([schemes.cert_number]);
export const trainingSearch = searchDocument([
  trainingCertificates.name,
  trainingCertificates.certificate_number,
  trainingCertificates.training,
  trainingCertificates.location,
]);
