import type { FastifyInstance } from 'fastify';
import { trainingSchema } from '@sertifikasi/shared-contracts';
import { defineResourceRoutes } from '../resource/resource.routes';
import { trainingService } from './training.service';

/** Training certificates ('Sertifikasi Pelatihan', /api/training-certificate): the routes over training.service.ts. */
export default async function trainingRoutes(app: FastifyInstance) {
  defineResourceRoutes(app, {
    service: trainingService,
    noun: 'training certificate',
    answer: trainingSchema,
    getOne: true,
  });
}
