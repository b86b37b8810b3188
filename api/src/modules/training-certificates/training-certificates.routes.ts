import type { FastifyInstance } from 'fastify';
import { trainingCertificateSchema } from '@sertifikasi/shared-contracts';
import { defineResourceRoutes } from '../resource/resource.routes';
import { trainingCertificateService } from './training-certificates.service';

/** Training certificates ('Sertifikasi Pelatihan', /api/training-certificate): the routes over training-certificates.service.ts. */
export default async function trainingCertificateRoutes(app: FastifyInstance) {
  defineResourceRoutes(app, {
    service: trainingCertificateService,
    noun: 'training certificate',
    answer: trainingCertificateSchema,
    getOne: true,
  });
}
