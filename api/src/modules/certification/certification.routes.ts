import type { FastifyInstance } from 'fastify';
import { certificationSchema } from '@sertifikasi/shared-contracts';
import { defineResourceRoutes } from '../resource/resource.routes';
import { certificationService } from './certification.service';

/** Certification types ('Sertifikat', /api/certification): the routes over certification.service.ts. */
export default async function certificationRoutes(app: FastifyInstance) {
  defineResourceRoutes(app, {
    service: certificationService,
    noun: 'certification type',
    answer: certificationSchema,
  });
}
