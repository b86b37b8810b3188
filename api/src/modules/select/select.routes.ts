import type { FastifyInstance } from 'fastify';
import * as yup from 'yup';
import { companyOptionSchema, permissionSchema } from '@sertifikasi/shared-contracts';
import { defineRoute } from '../../lib/route';
import { companyOptions } from '../companies/companies.repository';
import { permissionOptions, roleOptions } from '../roles/roles.repository';

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
}
