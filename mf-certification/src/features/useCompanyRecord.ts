import { useParams } from 'react-router-dom';
import { ALL } from '@sertifikasi/shared-contracts';
import { useAuth } from '@sertifikasi/shared-auth';
import { useRecord } from '@sertifikasi/shared-ui';

/**
 * The record of a detail page (`/<resource>/:id`), read as `GET <endpoint>/{company_id}/{id}` with
 * the header's company (ALL: any company in scope): a record of another company is not found.
 */
export function useCompanyRecord<T>(endpoint: string) {
  const { id = '' } = useParams();
  const companyId = useAuth((s) => s.company_id) ?? ALL;
  return useRecord<T>(id ? `${endpoint}/${encodeURIComponent(companyId)}/${encodeURIComponent(id)}` : null);
}
