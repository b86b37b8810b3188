import type { FastifyInstance } from 'fastify';
import { accreditedSchema } from '@sertifikasi/shared-contracts';
import { defineResourceRoutes } from '../resource/resource.routes';
import { accreditedService } from './accredited.service';

/** Accreditation bodies ('Akreditasi', /api/accredited): the routes over accredited.service.ts. */
export default async function accreditedRoutes(app: FastifyInstance) {
  defineResourceRoutes(app, {
    service: accreditedService,
    noun: 'accreditation body',
    answer: accreditedSchema,
  });
}
