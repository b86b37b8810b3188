import type { FastifyInstance } from 'fastify';
import { accreditationBodySchema } from '@sertifikasi/shared-contracts';
import { defineResourceRoutes } from '../resource/resource.routes';
import { accreditationBodyService } from './accreditation-bodies.service';

/** Accreditation bodies ('Akreditasi', /api/accredited): the routes over accreditation-bodies.service.ts. */
export default async function accreditationBodyRoutes(app: FastifyInstance) {
  defineResourceRoutes(app, {
    service: accreditationBodyService,
    noun: 'accreditation body',
    answer: accreditationBodySchema,
  });
}
