import type { FastifyInstance } from 'fastify';
import { accreditedSchema } from '@sertifikasi/shared-contracts';
import { defineResource } from '../resource';
import { accreditedService } from './accredited.service';

/** Accreditation bodies ('Akreditasi'): the routes over accredited.service.ts. */
export default async function accreditedRoutes(app: FastifyInstance) {
  defineResource(app, {
    service: accreditedService,
    module: 'accredited',
    url: '/api/accredited',
    noun: 'accreditation body',
    answer: accreditedSchema,
  });
}
