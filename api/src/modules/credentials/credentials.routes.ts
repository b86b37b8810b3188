import type { FastifyInstance } from 'fastify';
import { JWKS_PATH, VC_JWT_TYPE } from '@sertifikasi/shared-contracts/credential';
import { defineRoute } from '../../lib/route';
import { activeKey, ensureSigningKey, publishedKeys } from '../../services/signing';
import {
  notFoundSchema,
  numberParams,
  openToOtherOrigins,
  sendCached,
  sendCachedBody,
  sendNotFound,
} from '../public-check/public-answers';
import { findSchemeByNumber, findTrainingByNumber } from '../public-check/public-check.repository';
import { findSchemeIssuer, findTrainingIssuer } from './credentials.repository';
import { schemeCredential, trainingCredential } from './credentials.service';

const TAG = 'public verification';
const CREDENTIAL_PATHS = ['/api/credential/company/:number', '/api/credential/training/:number'];

/** A JWKS of OKP/Ed25519 public keys: what the response schema lets out (never a private part). */
const jwksSchema = {
  type: 'object',
  properties: {
    keys: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          kty: { type: 'string' },
          crv: { type: 'string' },
          x: { type: 'string' },
          kid: { type: 'string' },
          alg: { type: 'string' },
          use: { type: 'string' },
        },
        required: ['kty', 'crv', 'x', 'kid'],
        additionalProperties: false,
      },
    },
  },
  required: ['keys'],
  additionalProperties: false,
};

const credentialSchema = { type: 'string', description: `A compact JWS (${VC_JWT_TYPE})` };

/**
 * Signed certificates (docs/rules.md#signed-certificates): the published keys, and the credentials of
 * company and training certificates, with the public checks' path rules, limits, caching, CORS
 * and `404 NOT FOUND` (modules/public-check, reused).
 */
export default async function credentialRoutes(app: FastifyInstance) {
  const rateLimit = { max: app.config.publicRateLimit, timeWindow: 60_000 };
  // The signing key exists from the first start on (created then; kept in the database).
  app.addHook('onReady', async () => {
    await ensureSigningKey(app.db);
  });

  await app.register(async (open) => {
    openToOtherOrigins(open, [JWKS_PATH, ...CREDENTIAL_PATHS], rateLimit);

    // Not under /api/ (where verifiers look for it), so outside the API's documentation.
    open.route({
      method: 'GET',
      url: JWKS_PATH,
      config: { access: { public: true }, rateLimit },
      schema: { hide: true, response: { 200: jwksSchema } },
      handler: async (req, reply) => sendCached(req, reply, await publishedKeys(app.db)),
    });

    /** Each kind: what it is, and its credential (a compact JWS) by number, or null (404). */
    const kinds: {
      url: string;
      noun: string;
      absent: string;
      issue: (number: string) => Promise<string | null>;
    }[] = [
      {
        url: '/api/credential/company/:number',
        noun: 'a company certificate',
        absent: 'unknown and DRAFT numbers',
        issue: async (number) => {
          const row = await findSchemeByNumber(app.db, number);
          const issuer = row && (await findSchemeIssuer(app.db, row.id));
          if (!row || issuer === null) return null;
          return schemeCredential(await activeKey(app.db), app.config, app.clock, row, issuer);
        },
      },
      {
        url: '/api/credential/training/:number',
        noun: 'a training certificate',
        absent: 'unknown numbers',
        issue: async (number) => {
          const row = await findTrainingByNumber(app.db, number);
          const issuer = row && (await findTrainingIssuer(app.db, row.certificate_number));
          if (!row || issuer === null) return null;
          return trainingCredential(await activeKey(app.db), app.config, app.clock, row, issuer);
        },
      },
    ];
    for (const kind of kinds) {
      defineRoute(open, {
        method: 'GET',
        url: kind.url,
        summary:
          `The W3C Verifiable Credential 2.0 of ${kind.noun} as a compact JWS (alg EdDSA, typ vc+jwt), ` +
          `\`${VC_JWT_TYPE}\`; keys at ${JWKS_PATH}. Same number rules as the check; \`404 NOT FOUND\` for ` +
          `${kind.absent}. Cacheable (ETag), CORS open.`,
        tags: [TAG],
        access: { public: true },
        params: numberParams,
        rateLimit,
        response: { 200: credentialSchema, 404: notFoundSchema },
        handler: async (req, reply) => {
          const jws = await kind.issue(req.params.number);
          return jws === null ? sendNotFound(reply) : sendCachedBody(req, reply, jws, VC_JWT_TYPE);
        },
      });
    }
  });
}
