import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { ERROR_CODES, MESSAGES } from '@sertifikasi/shared-contracts';
import { AppError, pgError } from '../lib/errors';

/** Unique indexes -> the field they protect and the Indonesian message (DECISIONS.md section 2, 8). */
const UNIQUE_FIELDS: Record<string, [string, string]> = {
  roles_name_lower_uq: ['name', 'Nama akses sudah digunakan'],
  companies_name_lower_uq: ['name', 'Nama perusahaan sudah digunakan'],
  users_username_lower_uq: ['username', 'Username sudah digunakan'],
  client_certificates_number_uq: ['certificate_number', 'Nomor sertifikat sudah digunakan'],
  schemes_cert_number_uq: ['cert_number', 'Nomor sertifikat sudah digunakan'],
  training_certificates_number_uq: ['certificate_number', 'Nomor sertifikat sudah digunakan'],
};

function send(
  reply: FastifyReply,
  status: number,
  code: string,
  message: string,
  errors?: Record<string, string>,
) {
  return reply.status(status).send(errors ? { code, message, errors } : { code, message });
}

/** One error shape for the whole API; 5xx details only reach the log. */
export default fp(async function errors(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError & { errors?: Record<string, string> }, req, reply) => {
    if (err instanceof AppError) return send(reply, err.statusCode, err.code, err.message, err.errors);
    const db = pgError(err);
    if (db?.code === '23505' && db.constraint && UNIQUE_FIELDS[db.constraint]) {
      const [field, message] = UNIQUE_FIELDS[db.constraint]!;
      return send(reply, 422, ERROR_CODES.validation, message, { [field]: message });
    }
    if (db?.code === '23503' || db?.code === '23001') {
      return send(reply, 422, ERROR_CODES.validation, 'Data terkait tidak ditemukan atau masih dipakai');
    }
    if (db?.code === '23514' || db?.code === '22P02' || db?.code === '22007' || db?.code === '22008') {
      return send(reply, 422, ERROR_CODES.validation, MESSAGES.validation);
    }
    const status = err.statusCode ?? 500;
    if (err.code === 'FST_REQ_FILE_TOO_LARGE') {
      return send(reply, 413, ERROR_CODES.tooLarge, 'Ukuran file melebihi batas (maksimal 2 MB)');
    }
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return send(reply, 413, ERROR_CODES.tooLarge, 'Ukuran data melebihi batas (maksimal 1 MB)');
    }
    if (err.code === 'FST_FILES_LIMIT' || err.code === 'FST_FIELDS_LIMIT' || err.code === 'FST_PARTS_LIMIT') {
      return send(reply, 413, ERROR_CODES.tooLarge, 'Terlalu banyak file atau field dalam satu permintaan');
    }
    if (status === 413) return send(reply, 413, ERROR_CODES.tooLarge, MESSAGES.tooLarge);
    if (status === 429) return send(reply, 429, ERROR_CODES.tooManyRequests, MESSAGES.tooManyRequests);
    if (status === 415 || status === 406) {
      return send(reply, 400, ERROR_CODES.badRequest, 'Jenis konten tidak didukung');
    }
    // Unreadable multipart bodies (no boundary, cut short, garbage) are thrown by the parser as plain errors.
    if (
      /^(Multipart: |Unexpected end of (multipart data|form)|Malformed part header)/.test(err.message ?? '')
    ) {
      return send(reply, 400, ERROR_CODES.badRequest, MESSAGES.badRequest);
    }
    if (status >= 400 && status < 500) {
      return send(
        reply,
        status,
        status === 404 ? ERROR_CODES.notFound : ERROR_CODES.badRequest,
        MESSAGES.badRequest,
      );
    }
    req.log.error({ err }, 'request failed');
    return send(reply, 500, ERROR_CODES.internal, MESSAGES.systemError);
  });

  app.setNotFoundHandler((req, reply) => send(reply, 404, ERROR_CODES.notFound, MESSAGES.notFound));
});
