import type { FastifyInstance } from 'fastify';
import { certificationTypeSchema } from '@sertifikasi/shared-contracts';
import { defineResourceRoutes } from '../resource/resource.routes';
import { certificationTypeService } from './certification-types.service';

/** Certification types ('Sertifikat', /api/certification): the routes over certification-types.service.ts. */
export default async function certificationTypeRoutes(app: FastifyInstance) {
  defineResourceRoutes(app, {
    service: certificationTypeService,
    noun: 'certification type',
    answer: certificationTypeSchema,
  });
}
