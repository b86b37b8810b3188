/**
 * The one way tests make the records they need: `ctx.make` (createTestContext), each record written
 * through the service a form save calls, as the system (every permission, scope ALL), in its own
 * transaction. So a fixture gets what a real record gets (computed expiry, audit row, status history,
 * register counts, signed QR) and no test has to remember to rebuild anything derived.
 *
 *   const company = await ctx.make.company('PT Alfa');
 *   const staff = await ctx.make.user({ username: 'staf', keys: ['company'], company_ids: [company] });
 *   const type = await ctx.make.certificationType(company, 'ISO 9001');
 *   const scheme = await ctx.make.scheme({ company, type, status: 'SUSPENDED' });
 *
 * Defaults are what a test does not care about; every number is unique within the test file.
 */
import { eq, inArray } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import {
  accreditationBodyInputSchema,
  certificationTypeInputSchema,
  clientCertificateInputSchema,
  clientSiteInputSchema,
  COMPANY_IMAGE_LABELS,
  companyInputSchema,
  type MailKind,
  type SchemeStatus,
  schemeInputSchema,
  trainingCertificateInputSchema,
  webhookInputSchema,
} from '@sertifikasi/shared-contracts';
import { mailOutbox, permissions, webhookDeliveries } from '../src/db/schema';
import { accreditationBodyService } from '../src/modules/accreditation-bodies/accreditation-bodies.service';
import { certificationTypeService } from '../src/modules/certification-types/certification-types.service';
import { clientCertificateService } from '../src/modules/client-certificates/client-certificates.service';
import { createSite } from '../src/modules/client-sites/client-sites.service';
import * as companyService from '../src/modules/companies/companies.service';
import * as roleService from '../src/modules/roles/roles.service';
import { schemeService } from '../src/modules/schemes/schemes.service';
import { trainingCertificateService } from '../src/modules/training-certificates/training-certificates.service';
import * as userService from '../src/modules/users/users.service';
import { createWebhook } from '../src/modules/webhooks/webhooks.service';
import { dedupeKey, queueMail } from '../src/notify/mail';
import { queueDelivery } from '../src/notify/webhooks';
import { type ServiceContext, systemActor } from '../src/services/context';
import { prepareUploads } from '../src/services/images';

/** The password of every user `make.user` makes unless told otherwise. */
export const FIXTURE_PASSWORD = 'password-123';

/** A user made by `make.user`: their id and a token signed in as them. */
export interface SignedIn {
  id: string;
  token: string;
}

/** Every permission key of a resource: see, create, edit, delete. */
export const allKeys = (resource: string): string[] => [
  resource,
  `${resource}:create`,
  `${resource}:edit`,
  `${resource}:delete`,
];

/** A webhook address on the loopback: never reached while private addresses are refused. */
export const LOOPBACK_HOOK = 'https://127.0.0.1:9/hook';

/** What a scheme fixture may set; the rest takes a default. */
export interface SchemeFixture {
  company: string;
  /** The certification type. */
  type: string;
  /** The client; a new one of `company` when left out. */
  client?: string;
  status?: SchemeStatus;
  issue_date?: string;
  /**
   * The expiry the scheme must get: its validity is chosen so that the service computes this date
   * (whole years when the day and month match, days otherwise). Default: three years.
   */
  expired_date?: string;
  /** An accreditation body: the scheme is then accredited by it. */
  accredited?: string;
  cert_number?: string;
  desc?: string;
  surveillance_date?: string;
  /** More fields of the scheme's input (the register data: scope, sector codes, sites...). */
  more?: Record<string, unknown>;
}

const DAY_MS = 86_400_000;

/** The validity that takes `issue` to `expiry`: whole years when the day and month match, else days. */
function validityBetween(issue: string, expiry: string) {
  if (issue.slice(4) === expiry.slice(4)) {
    return { valid_for: Number(expiry.slice(0, 4)) - Number(issue.slice(0, 4)), valid_for_type: 'YEAR' };
  }
  const days = (Date.parse(`${expiry}T00:00:00Z`) - Date.parse(`${issue}T00:00:00Z`)) / DAY_MS;
  return { valid_for: days, valid_for_type: 'DAY' };
}

export type Fixtures = ReturnType<typeof fixtures>;

/** The fixture builder of one app (its database, clock and configuration). */
export function fixtures(
  app: FastifyInstance,
  login: (username: string, password: string) => Promise<string>,
) {
  let seq = 0;
  const next = () => String(++seq).padStart(4, '0');
  let png: Promise<Buffer> | undefined;
  /** A small PNG, for the records whose create requires an image. */
  const icon = () =>
    (png ??= sharp({ create: { width: 16, height: 16, channels: 3, background: 'teal' } })
      .png()
      .toBuffer());

  /** Runs one service write as the system, in its own transaction. */
  const write = <R>(work: (ctx: ServiceContext) => Promise<R>): Promise<R> =>
    app.db.transaction((tx) => work({ tx, actor: systemActor(), clock: app.clock, config: app.config }));

  const make = {
    write,

    /** A company; `over` may hold image files (`logo_cert_file`: a PNG buffer) as a form upload does. */
    async company(name: string, over: Record<string, unknown> = {}): Promise<string> {
      const input = companyInputSchema.validateSync({
        name,
        website: `https://${name.replace(/\W+/g, '').toLowerCase() || next()}.co.id`,
        ...over,
      });
      const uploads = await prepareUploads(input, COMPANY_IMAGE_LABELS, app.imageWork);
      return (await write((ctx) => companyService.create(ctx, input, uploads))).id;
    },

    /** A role holding the permission keys given. */
    async role(name: string, keys: string[]): Promise<string> {
      const rows = keys.length
        ? await app.db
            .select({ id: permissions.id, name: permissions.name })
            .from(permissions)
            .where(inArray(permissions.name, keys))
        : [];
      const unknown = keys.filter((key) => !rows.some((row) => row.name === key));
      if (unknown.length) throw new Error(`No such permission: ${unknown.join(', ')}`);
      return (await write((ctx) => roleService.create(ctx, { name, permission: rows.map((r) => r.id) }))).id;
    },

    /**
     * A user with a role (`roles_id`, or a new role holding `keys`) and a scope, signed in: their id
     * and a token.
     */
    async user(input: {
      username: string;
      company_ids: 'ALL' | string[];
      roles_id?: string;
      keys?: string[];
      name?: string;
      password?: string;
      is_active?: 'true' | 'false';
    }): Promise<SignedIn> {
      const password = input.password ?? FIXTURE_PASSWORD;
      const roleId = input.roles_id ?? (await make.role(`Akses ${input.username}`, input.keys ?? []));
      const prepared = await userService.preparePassword(app.config, password);
      const user = await write((ctx) =>
        userService.create(
          ctx,
          {
            name: input.name ?? input.username,
            username: input.username,
            roles_id: roleId,
            company_ids: JSON.stringify(input.company_ids),
            is_active: input.is_active ?? 'true',
          },
          prepared,
        ),
      );
      const active = (input.is_active ?? 'true') === 'true';
      return { id: user.id, token: active ? await login(input.username, password) : '' };
    },

    /**
     * The usual cast of a resource's tests: companies `PT Alfa <label>` and `PT Beta <label>`, the
     * `editor` (user `alfa.<tag>`, scope Alfa) and the `reader` (user `baca.<tag>`, scope ALL) holding
     * the keys given (no reader without reader keys).
     */
    async cast(
      tag: string,
      label: string,
      keys: { editor: string[]; reader?: string[] },
    ): Promise<{ alfa: string; beta: string; editor: SignedIn; reader: SignedIn }> {
      const alfa = await make.company(`PT Alfa ${label}`);
      const beta = await make.company(`PT Beta ${label}`);
      const editor = await make.user({ username: `alfa.${tag}`, keys: keys.editor, company_ids: [alfa] });
      const reader = keys.reader
        ? await make.user({ username: `baca.${tag}`, keys: keys.reader, company_ids: 'ALL' })
        : { id: '', token: '' };
      return { alfa, beta, editor, reader };
    },

    /**
     * A webhook of `company` for `events`, saved as if private addresses were allowed (WEBHOOK_ALLOW_PRIVATE),
     * so the default loopback address is never reached by the tests' app, which refuses it.
     */
    async webhook(company: string, url = LOOPBACK_HOOK, events = ['scheme.created']): Promise<string> {
      const input = webhookInputSchema.validateSync({ company_id: company, url, events });
      const allowing = { ...app.config, webhookAllowPrivate: true };
      return (
        await app.db.transaction((tx) =>
          createWebhook({ tx, actor: systemActor(), clock: app.clock, config: allowing }, input),
        )
      ).id;
    },

    /**
     * A delivery of a new webhook of `company` that failed for good: queued as a write queues it,
     * then left as the sender leaves it after its last try (the sender would need a server to refuse it).
     */
    async failedDelivery(company: string): Promise<string> {
      const webhook = await make.webhook(company);
      const id = await queueDelivery(
        app.db,
        app.clock,
        { id: webhook, company_id: company },
        'scheme.created',
        {},
      );
      await app.db
        .update(webhookDeliveries)
        .set({ state: 'failed', attempts: 7 })
        .where(eq(webhookDeliveries.id, id));
      return id;
    },

    /**
     * An email about `company` (or about several: null), queued as the reminders queue it, then left
     * as the sender leaves it (`sent` unless told: the sender would need an SMTP server).
     */
    async mail(
      company: string | null,
      over: Partial<
        Pick<
          typeof mailOutbox.$inferInsert,
          'recipient' | 'subject' | 'state' | 'attempts' | 'last_error' | 'created_at'
        >
      > & { kind?: MailKind } = {},
    ): Promise<string> {
      const {
        recipient = 'klien@contoh.test',
        subject = 'Pengingat: audit surveilan',
        kind,
        ...outcome
      } = over;
      const dedupe = {
        record: `test-${next()}`,
        kind: kind ?? 'audit-reminder',
        due: '2026-01-01',
        step: '30',
      };
      await queueMail(app.db, app.clock, {
        companyId: company,
        recipient,
        subject,
        text: 'Yth. Klien',
        dedupe,
      });
      const [row] = await app.db
        .update(mailOutbox)
        .set({ state: 'sent', attempts: 1, ...outcome })
        .where(eq(mailOutbox.dedupe_key, dedupeKey(dedupe)))
        .returning({ id: mailOutbox.id });
      return row!.id;
    },

    async certificationType(
      company: string,
      name = 'ISO 9001',
      over: Record<string, unknown> = {},
    ): Promise<string> {
      const input = certificationTypeInputSchema.validateSync({
        company_id: company,
        name,
        category: 'Sistem',
        code: `K${next()}`,
        position: seq,
        icon_file: await icon(),
        ...over,
      });
      const uploads = await certificationTypeService.prepareUploads(input, app.imageWork);
      return (await write((ctx) => certificationTypeService.create(ctx, input, uploads))).id;
    },

    async accreditationBody(
      company: string,
      name = 'KAN',
      over: Record<string, unknown> = {},
    ): Promise<string> {
      const input = accreditationBodyInputSchema.validateSync({
        company_id: company,
        name,
        icon_file: await icon(),
        ...over,
      });
      const uploads = await accreditationBodyService.prepareUploads(input, app.imageWork);
      return (await write((ctx) => accreditationBodyService.create(ctx, input, uploads))).id;
    },

    /** A client certificate (a certified client company) of `company`. */
    async client(
      company: string,
      name = 'PT Maju Bersama',
      over: Record<string, unknown> = {},
    ): Promise<string> {
      const input = clientCertificateInputSchema.validateSync({
        company_id: company,
        name,
        certificate_number: `CL-${next()}`,
        region: 'Jakarta',
        ...over,
      });
      return (await write((ctx) => clientCertificateService.create(ctx, input))).id;
    },

    /** A site ('Lokasi') of a client. */
    async site(
      client: string,
      name = 'Pabrik Cikarang',
      over: Record<string, unknown> = {},
    ): Promise<string> {
      const input = clientSiteInputSchema.validateSync({ client_id: client, name, city: 'Bekasi', ...over });
      return (await write((ctx) => createSite(ctx, input))).id;
    },

    async scheme(fixture: SchemeFixture): Promise<string> {
      const client = fixture.client ?? (await make.client(fixture.company, `PT Klien ${next()}`));
      const issue = fixture.issue_date ?? '2025-01-01';
      const validity = fixture.expired_date
        ? validityBetween(issue, fixture.expired_date)
        : { valid_for: 3, valid_for_type: 'YEAR' };
      const input = schemeInputSchema.validateSync({
        certificate_id: client,
        certification_id: fixture.type,
        cert_number: fixture.cert_number ?? `SC-${next()}`,
        status: fixture.status ?? 'ACTIVE',
        issue_date: issue,
        ...validity,
        is_accredited: fixture.accredited ? 'true' : 'false',
        accredited_id: fixture.accredited ?? null,
        ...(fixture.desc === undefined ? {} : { desc: fixture.desc }),
        ...(fixture.surveillance_date === undefined ? {} : { surveillance_date: fixture.surveillance_date }),
        ...fixture.more,
      });
      const scheme = await write((ctx) => schemeService.create(ctx, input));
      if (fixture.expired_date && scheme.expired_date !== fixture.expired_date) {
        throw new Error(`scheme expires ${scheme.expired_date}, not ${fixture.expired_date}`);
      }
      return scheme.id;
    },

    async training(
      company: string,
      over: Partial<
        Record<'name' | 'date' | 'certificate_number' | 'training' | 'location' | 'desc', string>
      > & {
        certification_id?: string;
      } = {},
    ): Promise<string> {
      const input = trainingCertificateInputSchema.validateSync({
        company_id: company,
        name: 'Budi Santoso',
        certificate_number: `TR-${next()}`,
        training: 'Auditor Internal',
        location: 'Jakarta',
        date: '2025-01-15',
        ...over,
      });
      return (await write((ctx) => trainingCertificateService.create(ctx, input))).id;
    },
  };
  return make;
}
