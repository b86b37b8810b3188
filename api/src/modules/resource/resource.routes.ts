/**
 * The routes of a company-owned record over its service (resource.service.ts): list (and get-one),
 * create, update and delete under `/api/<entity>`, with the permission module `<entity>`: the list
 * and get-one need `<entity>`, writes `<entity>:create|edit|delete` (docs/rules.md#permissions); the
 * auth hook checks them and the list's company scope (`company_id`, ALL = the caller's scope,
 * outside it 403). Each handler reads the request, prepares image uploads before the transaction,
 * calls the service inside `app.db.transaction` with the caller as the actor, and shapes the answer.
 */
import type { FastifyInstance } from 'fastify';
import type * as yup from 'yup';
import { ALL } from '@sertifikasi/shared-contracts';
import { companyFilter } from '../../plugins/auth';
import { actorOf, contextOf } from '../../services/context';
import { notFound } from '../../lib/errors';
import { listJsonSchema } from '../../lib/list';
import { companyIdParams, deleteResponseSchema, idParams } from '../../lib/params';
import { defineRoute } from '../../lib/route';
import { toJsonSchema } from '../../lib/yup-json-schema';
import { type ResourceListQuery, resourceListQuery } from './resource.repository';
import type { ResourceService } from './resource.service';

export interface ResourceRoutesDef<S extends yup.AnyObjectSchema> {
  service: ResourceService<S, { id: string; company_id: string }>;
  /** What a record is, for the OpenAPI summaries ('accreditation body'). */
  noun: string;
  /** The answer of every route (shared-contracts). */
  answer: yup.AnyObjectSchema;
  /** `GET /api/<entity>/:company_id/:id` (the record, 404 outside the scope or that company). */
  getOne?: boolean;
}

/** The list, get-one, create, update and delete routes of a company-owned record. */
export function defineResourceRoutes<S extends yup.AnyObjectSchema>(
  app: FastifyInstance,
  def: ResourceRoutesDef<S>,
): void {
  const { service, noun, answer } = def;
  const module = service.entity;
  const url = `/api/${module}`;
  const tags = [module];
  const imageFields = Object.keys(service.imageLabels);
  const withImages = imageFields.length > 0;

  defineRoute(app, {
    method: 'GET',
    url,
    summary: `List ${noun} records of a company or of every company in scope (company_id=ALL)`,
    tags,
    access: { permission: module },
    query: resourceListQuery(service.sortKeys),
    response: { 200: listJsonSchema(toJsonSchema(answer)) },
    handler: async (req) => {
      const query = req.query as ResourceListQuery;
      return service.list(app.db, query, companyFilter(req, query.company_id), app.listCache);
    },
  });

  if (def.getOne) {
    defineRoute(app, {
      method: 'GET',
      url: `${url}/:company_id/:id`,
      summary: `One ${noun} (company_id: its company, or ALL)`,
      tags,
      access: { permission: module },
      params: companyIdParams,
      response: { 200: answer },
      handler: async (req) => {
        const { company_id: companyId, id } = req.params;
        const found = await service.find(app.db, id, req.auth.scope);
        if (!found || (companyId !== ALL && found.company_id !== companyId.toLowerCase())) throw notFound();
        return found;
      },
    });
  }

  defineRoute(app, {
    method: 'POST',
    url,
    summary: `Create a ${noun} in a company within the caller's scope${withImages ? ` (images as ${imageFields.map((f) => `${f}_file`).join(', ')})` : ''}`,
    tags,
    access: { permission: `${module}:create` },
    multipart: withImages,
    body: service.createInput,
    response: { 201: answer },
    handler: async (req, reply) => {
      const input = req.body as yup.InferType<S>;
      service.checkCreate(actorOf(req), input);
      const uploads = await service.prepareUploads(input, app.imageWork);
      const created = await app.db.transaction((tx) =>
        service.create(contextOf(app, req, tx), input, uploads),
      );
      return reply.status(201).send(created);
    },
  });

  defineRoute(app, {
    method: withImages ? ['POST', 'PUT'] : 'PUT',
    url: `${url}/:id`,
    summary: `Update a ${noun} in scope${withImages ? ' (multipart: POST with _method=PUT, or PUT)' : ''}`,
    tags,
    access: { permission: `${module}:edit` },
    multipart: withImages,
    params: idParams,
    body: service.input,
    response: { 200: answer },
    handler: async (req) => {
      const { id } = req.params;
      const input = req.body;
      await service.checkUpdate(app.db, actorOf(req), id, input);
      const uploads = await service.prepareUploads(input, app.imageWork);
      return app.db.transaction((tx) => service.update(contextOf(app, req, tx), id, input, uploads));
    },
  });

  defineRoute(app, {
    method: 'DELETE',
    url: `${url}/:id`,
    summary: `Delete a ${noun} in scope that nothing refers to (else success false)`,
    tags,
    access: { permission: `${module}:delete` },
    params: idParams,
    response: { 200: deleteResponseSchema },
    handler: async (req) => {
      const { id } = req.params;
      return app.db.transaction((tx) => service.remove(contextOf(app, req, tx), id));
    },
  });
}
