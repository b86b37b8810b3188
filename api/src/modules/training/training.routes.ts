import type { FastifyInstance } from 'fastify';
import { trainingSchema } from '@sertifikasi/shared-contracts';
import { defineResource } from '../resource';
import { trainingService } from './training.service';

/** Training certificates ('Sertifikasi Pelatihan'): the routes over training.service.ts. */
export default async function trainingRoutes(app: FastifyInstance) {
  defineResource(app, {
    service: trainingService,
    module: 'training-certificate',
    url: '/api/training-certificate',
    noun: 'training certificate',
    answer: trainingSchema,
    getOne: true,
  });
}
