/**
 * Every write of a company (docs/architecture.md): create, update, delete. Each takes a service
 * context and does the checks, then the one write sequence (services/write-sequence.ts: the write,
 * the after-write steps, the audit, the answer) in its transaction.
 * A company is seen and edited only within the actor's scope (404 outside it, as if absent); the
 * permission keys and "creating needs scope ALL" are the auth hook's (plugins/auth.ts).
 *
 * Images come as uploads prepared before the transaction (services/images.ts prepareUploads: checked
 * and re-encoded, nothing stored yet); the input's `<field>` says keep (absent or unchanged) or remove
 * (empty), docs/rules.md#api-conventions.
 */
import { eq } from 'drizzle-orm';
import {
  ALL,
  type Company,
  COMPANY_IMAGE_LABELS,
  type CompanyInput,
  type DeleteResponse,
  MESSAGES,
} from '@sertifikasi/shared-contracts';
import type { Executor } from '../../db';
import { companies } from '../../db/schema';
import { newId } from '../../lib/crypto';
import { notFound } from '../../lib/errors';
import { recordWrites } from '../../services/record-writes';
import type { Actor, ServiceContext } from '../../services/context';
import { applyImageFields, deleteImages, type PreparedImage } from '../../services/images';
import { companyInUse, findCompany, findCompanyRow } from './companies.repository';

type ImageField = keyof typeof COMPANY_IMAGE_LABELS;
/** The company's images uploaded with the write, checked and re-encoded before the transaction. */
export type CompanyUploads = Partial<Record<ImageField, PreparedImage>>;

/** The company fields of an input, as stored (flags as booleans, empty optional text as null). */
function columnsOf(input: CompanyInput) {
  return {
    name: input.name,
    email: input.email ?? null,
    phone: input.phone ?? null,
    address: input.address ?? null,
    website: input.website,
    simple_dates: input.simple_dates === 'true',
    public_certificate_download: input.public_certificate_download === 'true',
  };
}

/**
 * The stored company if it lies in `scope` (404 otherwise, as if absent). A route asks before it
 * prepares uploads, so a company outside the scope answers 404 whatever the files.
 */
export async function findInScope(db: Executor, actor: Pick<Actor, 'scope'>, id: string) {
  const row = await findCompanyRow(db, id, actor.scope);
  if (!row) throw notFound();
  return row;
}

type CompanyRow = typeof companies.$inferSelect;

/** A write of companies through the one write sequence (services/record-writes.ts). */
const writeCompanies = recordWrites<CompanyRow, Company>({
  entity: 'company',
  findRow: (db, id) => findCompanyRow(db, id, ALL),
  find: (db, id) => findCompany(db, id, ALL),
});

/** Creates a company with its images. */
export async function create(
  ctx: ServiceContext,
  input: CompanyInput,
  uploads: CompanyUploads = {},
): Promise<Company> {
  const { tx } = ctx;
  const id = newId();
  // A new company has no images yet: a name other than empty is one the API never gave it (422).
  const imageValues = await applyImageFields(tx, COMPANY_IMAGE_LABELS, input, uploads, {});
  const now = ctx.clock.now();
  const [created] = await writeCompanies(ctx, 'create', [{ id, companyId: id, current: null }], () =>
    tx
      .insert(companies)
      .values({ id, ...columnsOf(input), ...imageValues, created_at: now, updated_at: now }),
  );
  return created!;
}

/** Updates a company in the actor's scope; omitted optional fields are cleared, flags default to false. */
export async function update(
  ctx: ServiceContext,
  id: string,
  input: CompanyInput,
  uploads: CompanyUploads = {},
): Promise<Company> {
  const { tx } = ctx;
  const scope = ctx.actor.scope;
  const current = await findInScope(tx, ctx.actor, id);
  const before = await findCompany(tx, current.id, scope);
  const imageValues = await applyImageFields(tx, COMPANY_IMAGE_LABELS, input, uploads, current);
  const [after] = await writeCompanies(
    ctx,
    'update',
    [{ id: current.id, companyId: current.id, current, before }],
    () =>
      tx
        .update(companies)
        .set({ ...columnsOf(input), ...imageValues, updated_at: ctx.clock.now() })
        .where(eq(companies.id, current.id)),
  );
  return after!;
}

/**
 * Deletes a company in the actor's scope with its images. A company any record or user scope refers
 * to is not deleted: `success: false` with the spec's message (docs/rules.md#records).
 */
export async function remove(ctx: ServiceContext, id: string): Promise<DeleteResponse> {
  const { tx } = ctx;
  const current = await findInScope(tx, ctx.actor, id);
  if (await companyInUse(tx, current.id)) return { success: false, message: MESSAGES.inUseProduct };
  const before = await findCompany(tx, current.id, ALL);
  await writeCompanies(
    ctx,
    'delete',
    [{ id: current.id, companyId: current.id, current, before }],
    async () => {
      await tx.delete(companies).where(eq(companies.id, current.id));
      await deleteImages(tx, [current.logo, current.logo_cert, current.ttd_cert]);
    },
  );
  return { success: true, message: MESSAGES.deleted };
}
