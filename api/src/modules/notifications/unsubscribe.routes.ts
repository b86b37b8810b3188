/**
 * The unsubscribe link of a reminder (docs/rules.md#notifications): public, rate limited per address
 * like the public checks. `GET` shows a small Indonesian page with one button and changes nothing
 * (a mail scanner that opens links unsubscribes no one); `POST` (that button, or a mail program's
 * one-click `List-Unsubscribe-Post`, RFC 8058, whose body is form data) turns the client's
 * 'Kirim pengingat ke klien' off. A link whose signature is not right answers 403 and changes nothing.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import * as yup from 'yup';
import { UNSUBSCRIBE_PATH } from '../../notify/unsubscribe';
import { defineRoute } from '../../lib/route';
import { systemActor } from '../../services/context';
import { stopReminders, unsubscribeTarget, type UnsubscribeTarget } from './unsubscribe.service';

const params = yup.object({
  client_id: yup.string().required().max(64),
  signature: yup.string().required().max(200),
});

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The page of a link: what it stops and, until it is done, the one button that does it. */
function page(target: UnsubscribeTarget, done: boolean): string {
  const who = `<b>${escape(target.email)}</b> (${escape(target.client)})`;
  const body = !target.sendReminders
    ? `<p>${done ? 'Selesai.' : 'Sudah berhenti.'} Pengingat sertifikasi dari ${escape(target.body)} tidak lagi dikirim ke ${who}.</p>` +
      '<p>Untuk menerimanya lagi, hubungi lembaga sertifikasi Anda.</p>'
    : `<p>Berhenti menerima pengingat sertifikasi dari ${escape(target.body)} di ${who}?</p>` +
      '<form method="post"><input type="hidden" name="List-Unsubscribe" value="One-Click">' +
      '<button type="submit">Berhenti menerima pengingat</button></form>';
  return (
    '<!doctype html><html lang="id"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    '<title>Berhenti menerima pengingat</title></head>' +
    '<body style="font-family: sans-serif; max-width: 36rem; margin: 3rem auto; padding: 0 1rem">' +
    `<h1 style="font-size: 1.3rem">Berhenti menerima pengingat</h1>${body}</body></html>`
  );
}

const sendPage = (reply: FastifyReply, html: string) =>
  reply.header('Cache-Control', 'no-store').type('text/html; charset=utf-8').send(html);

export default async function unsubscribeRoutes(app: FastifyInstance) {
  const rateLimit = { max: app.config.publicRateLimit, timeWindow: 60_000 };
  const url = `${UNSUBSCRIBE_PATH}/:client_id/:signature`;
  const tags = ['notifications'];
  const response = { 200: { type: 'string', description: 'An HTML page (text/html), in Indonesian' } };

  // The one-click POST's form body (`List-Unsubscribe=One-Click`) says nothing the link does not:
  // read and dropped (multipart form data goes through the multipart plugin).
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 1024 },
    (_req, _body, done) => done(null, {}),
  );

  defineRoute(app, {
    method: 'GET',
    url,
    summary:
      'The page of a reminder’s unsubscribe link: whom it stops, with the button that does it (POST); changes nothing. 403 for a link that is not right',
    tags,
    access: { public: true },
    params,
    rateLimit,
    response,
    handler: async (req, reply) =>
      sendPage(
        reply,
        page(await unsubscribeTarget(app.db, req.params.client_id, req.params.signature), false),
      ),
  });

  defineRoute(app, {
    method: 'POST',
    url,
    summary:
      'Follows a reminder’s unsubscribe link (RFC 8058 one-click, or the page’s button): the client’s “Kirim pengingat ke klien” is turned off. 403 for a link that is not right',
    tags,
    access: { public: true },
    params,
    multipart: true,
    rateLimit,
    response,
    handler: async (req, reply) => {
      const target = await app.db.transaction((tx) =>
        stopReminders(
          {
            tx,
            actor: { ...systemActor(), requestId: String(req.id) },
            clock: app.clock,
            config: app.config,
          },
          req.params.client_id,
          req.params.signature,
        ),
      );
      return sendPage(reply, page(target, true));
    },
  });
}
