import type { FastifyInstance } from 'fastify';
import * as yup from 'yup';
import {
  auditPlanLookupsSchema,
  certificationLookupsSchema,
  companyOptionSchema,
  permissionSchema,
  reportLookupsSchema,
} from '@sertifikasi/shared-contracts';
import { companyParams } from '../../lib/params';
import { defineRoute } from '../../lib/route';
import { companyFilter } from '../../plugins/auth';
import { companyOptions } from '../companies/companies.repository';
import { planChoices } from '../planned-audits/planned-audits.repository';
import { permissionOptions, roleOptions } from '../roles/roles.repository';
import { accreditationBodyOptions, certificationTypeOptions, clientCertificateOptions } from './lookups';

const optionList = yup.array(companyOptionSchema).defined();

/** Look-ups for selectors. */
export default async function selectRoutes(app: FastifyInstance) {
  const tags = ['lookups'];

  defineRoute(app, {
    method: 'GET',
    url: '/api/select/company',
    summary: 'Companies the caller may pick (their scope)',
    tags,
    access: {},
    response: { 200: optionList },
    handler: async (req) => companyOptions(app.db, req.auth.scope),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/api/select/roles',
    summary: 'Access roles, for the user form',
    tags,
    access: { permission: ['user', 'roles'] },
    response: { 200: optionList },
    handler: async () => roleOptions(app.db),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/api/select/permission',
    summary: 'The permission catalogue, for the role form',
    tags,
    access: { permission: 'roles' },
    response: { 200: yup.array(permissionSchema).defined() },
    handler: async () => permissionOptions(app.db),
  });

  defineRoute(app, {
    method: 'GET',
    url: '/api/select/certification/:company_id',
    summary: 'Certification types and accreditation bodies of a company, or of every company in scope (ALL)',
    tags,
    access: {
      permission: [
        'company-certificate',
        'certification',
        'accredited',
        'training-certificate',
        'audit-schedule',
      ],
    },
    params: companyParams,
    response: { 200: certificationLookupsSchema },
    handler: async (req) => {
      const scope = companyFilter(req, req.params.company_id);
      const [certification, accredited] = await Promise.all([
        certificationTypeOptions(app.db, scope),
        accreditationBodyOptions(app.db, scope),
      ]);
      return { certification, accredited };
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: '/api/select/audit-plan/:company_id',
    summary:
      'Certification types and clients of a company (or ALL in scope), for auditors and planned audits',
    tags,
    access: { permission: ['auditor', 'audit-plan'] },
    params: companyParams,
    response: { 200: auditPlanLookupsSchema },
    handler: async (req) => {
      const scope = companyFilter(req, req.params.company_id);
      const [certification, clients, plan] = await Promise.all([
        certificationTypeOptions(app.db, scope),
        clientCertificateOptions(app.db, scope),
        planChoices(app.db, scope),
      ]);
      return { certification, company_certificate: clients, ...plan };
    },
  });

  defineRoute(app, {
    method: 'GET',
    url: '/api/select/report/:company_id',
    summary: 'Report filters: certification types, accreditation bodies and clients of a company or ALL',
    tags,
    access: {
      permission: [
        'report-company-certificate',
        'report-company-certificate-scheme',
        'report-training-certificate',
      ],
    },
    params: companyParams,
    response: { 200: reportLookupsSchema },
    handler: async (req) => {
      const scope = companyFilter(req, req.params.company_id);
      const [certification, accredited, clients] = await Promise.all([
        certificationTypeOptions(app.db, scope),
        accreditationBodyOptions(app.db, scope),
        clientCertificateOptions(app.db, scope),
      ]);
      return { certification, accredited, company_certificate: clients };
    },
  });
}
