import * as yup from 'yup';
import { ALL } from '@sertifikasi/shared-contracts';

/**
 * Ids in paths are read in lower case: the database compares UUIDs in any case, but the self and
 * last-administrator checks compare strings, and `/api/user/<ID IN CAPITALS>` must not slip past them.
 * A malformed id answers 404 (lib/validation.ts), as an unknown one does.
 */
export const idParams = yup.object({ id: yup.string().trim().lowercase().uuid().required() });

/** A company id or `ALL` (the UUID check made once, not per request). */
const uuidText = yup.string().uuid();
const companyOrAll = (v: string | undefined) => v === ALL || uuidText.isValidSync(v);

/** `/{company_id}/{id}`: a company (or `ALL`, every company in the caller's scope) and a record. */
export const companyIdParams = yup.object({
  company_id: yup.string().trim().test('company', companyOrAll).required(),
  id: yup.string().trim().lowercase().uuid().required(),
});

/** `/{company_id}`: a company or `ALL`, for look-ups and dashboards. */
export const companyParams = yup.object({
  company_id: yup.string().trim().test('company', companyOrAll).required(),
});

/**
 * `/{company_id}` of the dashboard and the reports: a company id or `ALL`, any text up to 64
 * characters, checked against the caller's scope by companyFilter (403 outside it, a malformed id
 * included), not by its form.
 */
export const scopeParams = yup.object({
  company_id: yup.string().trim().max(64).required(),
});

/** The delete answer (docs/rules.md#records and #api-conventions): `{success, message}`. */
export const deleteResponseSchema = yup.object({
  success: yup.boolean().defined(),
  message: yup.string().defined(),
});
