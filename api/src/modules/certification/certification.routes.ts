import type { FastifyInstance } from 'fastify';
import { certificationSchema } from '@sertifikasi/shared-contracts';
import { defineResource } from '../resource';
import { certificationService } from './certification.service';

/** Certification types ('Sertifikat'): the routes over certification.service.ts. */
export default async function certificationRoutes(app: FastifyInstance) {
  defineResource(app, {
    service: certificationService,
    module: 'certification',
    url: '/api/certification',
    noun: 'certification type',
    answer: certificationSchema,
  });
}
