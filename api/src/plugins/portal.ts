import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import { PUBLIC_CHECK_PATHS } from '@sertifikasi/shared-contracts/public';
import { notFound } from '../lib/errors';
import { REMOTES } from '../remotes';

export interface PortalOptions {
  /** The repository root holding shell/dist and <folder>/dist. */
  root: string;
  /** Remote base URLs from the environment (REMOTE_MF_MASTER_DATA_URL ...), by folder. */
  remoteUrls: Partial<Record<string, string>>;
}

/** /modules/remotes.json: where the shell finds each remote (a module deployed alone is pointed at here). */
export function remotesConfig(opts: PortalOptions) {
  const remotes: { name: string; folder: string; entry: string }[] = [];
  for (const r of REMOTES) {
    const base = opts.remoteUrls[r.folder];
    if (base) remotes.push({ name: r.name, folder: r.folder, entry: `${base}mf-manifest.json` });
    else if (fs.existsSync(path.join(opts.root, r.folder, 'dist', 'mf-manifest.json'))) {
      remotes.push({ name: r.name, folder: r.folder, entry: `/modules/${r.folder}/mf-manifest.json` });
    }
  }
  return { remotes };
}

/** Origins of remotes deployed elsewhere: the portal's CSP allows their scripts and styles. */
export function remoteOrigins(opts: Pick<PortalOptions, 'remoteUrls'>): string[] {
  return [
    ...new Set(
      Object.values(opts.remoteUrls).flatMap((u) => (u && /^https?:/.test(u) ? [new URL(u).origin] : [])),
    ),
  ];
}

/** The public check pages, answered with mf-public-check's standalone page on a direct hit. */
export const PUBLIC_PAGE_ROUTES = Object.values(PUBLIC_CHECK_PATHS);

/** The build writes a Brotli (.br) and a gzip (.gz) copy beside each text file (webpack.base.js). */
const COMPRESSED_COPY = /\.(br|gz)$/;

/**
 * The portal's entry points: the shell's index.html, `/modules/remotes.json`, each module's
 * `mf-manifest.json` and `remoteEntry.js` (docs/architecture.md#the-front-end). Used from the cache for
 * a minute, then for five more while the browser revalidates in the background (ETag, 304): reopening
 * the portal waits for no round trip, and a deploy (of the shell or of one module) reaches every
 * browser within six minutes, on the second load after its first minute. A deploy keeps the previous
 * build's hashed files (webpack.base.js), which stale entry points still name.
 */
export const ENTRY_CACHE_CONTROL = 'public, max-age=60, stale-while-revalidate=300';
const IMMUTABLE = 'public, max-age=31536000, immutable';

function setCacheHeaders(reply: FastifyReply, file: string) {
  // Hashed bundles never change; entry points are kept briefly (ENTRY_CACHE_CONTROL). `file` is the
  // copy actually sent (main.<hash>.js.br): its caching is the original's.
  const name = path.basename(file).replace(COMPRESSED_COPY, '');
  const immutable = /\.[0-9a-f]{16,}\.(js|css)$/.test(name);
  reply.header('Cache-Control', immutable ? IMMUTABLE : isEntry(name) ? ENTRY_CACHE_CONTROL : 'no-cache');
}

/** Whether an If-None-Match header names `etag` (weak or strong, one of a list, or `*`). */
function fresh(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((t) => {
    const tag = t.trim();
    return tag === '*' || tag === etag || tag === `W/${etag}`;
  });
}

/** A file the browser reads first and that names the hashed ones: index.html and the federation entries. */
const isEntry = (name: string) => /^(index\.html|login\.html|mf-manifest\.json|remoteEntry\.js)$/.test(name);

/**
 * Serves the staff portal on the API's origin (docs/rules.md#running-system): the shell at /, each
 * module's build at /modules/<folder>/, /modules/remotes.json, and the shell's index.html for every
 * client-side route on a direct hit.
 */
export default fp(async function portal(app: FastifyInstance, opts: PortalOptions) {
  const shellDir = path.join(opts.root, 'shell', 'dist');
  const hasShell = fs.existsSync(path.join(shellDir, 'index.html'));

  // Built files are public: they are served from a child context whose routes all say so.
  await app.register(async (files) => {
    files.addHook('onRoute', (route) => {
      route.config = { ...(route.config ?? {}), access: { public: true } };
      route.schema = { ...(route.schema ?? {}), hide: true };
    });
    let decorated = false;
    const serve = async (dir: string, prefix: string, wildcard: boolean) => {
      await files.register(fastifyStatic, {
        root: dir,
        prefix,
        decorateReply: !decorated,
        wildcard,
        index: false,
        cacheControl: false,
        // The best precompressed copy the browser accepts (br, then gzip, q-values honoured; the file
        // itself otherwise), with the original's Content-Type and `Vary: Accept-Encoding`.
        preCompressed: true,
        // Production builds emit no source maps (docs/rules.md#api-conventions); one left in a folder is
        // still not served.
        allowedPath: (pathname: string) => !/\.map$/i.test(pathname),
        setHeaders: (res, file) => setCacheHeaders(res, file),
      });
      decorated = true;
    };
    for (const r of REMOTES) {
      const dir = path.join(opts.root, r.folder, 'dist');
      if (fs.existsSync(dir)) await serve(dir, `/modules/${r.folder}/`, true);
    }
    if (hasShell) await serve(shellDir, '/', false);

    // A direct hit on a public check page (a QR scan) answers the public-check module's own page:
    // that module and React alone, never the shell, MUI or staff code (docs/rules.md#running-system).
    // Inside the portal the shell still routes to the same screens.
    const publicPage = path.join(opts.root, 'mf-public-check', 'dist', 'page');
    if (fs.existsSync(path.join(publicPage, 'index.html'))) {
      for (const route of PUBLIC_PAGE_ROUTES) {
        files.get(route, async (_req, reply) => {
          return reply.sendFile('index.html', publicPage);
        });
      }
    }

    // The sign-in page gets the shell's login.html when the build wrote one: the same page with the
    // sign-in form drawn in it, shown before the scripts arrive (shell/src/index.html).
    if (hasShell && fs.existsSync(path.join(shellDir, 'login.html'))) {
      files.get('/login', async (_req, reply) => reply.sendFile('login.html', shellDir));
    }

    // Client-side routes get the shell's index.html (precompressed like the rest); API, image and
    // module paths keep their 404.
    if (hasShell) {
      files.get('/*', async (req, reply) => {
        const url = req.url.split('?')[0] ?? '';
        if (/^\/(api|images|modules)(\/|$)/.test(url) || /\.[a-z0-9]{1,8}$/i.test(url)) throw notFound();
        return reply.sendFile('index.html', shellDir);
      });
    }
  });

  app.get(
    '/modules/remotes.json',
    { config: { access: { public: true } }, schema: { hide: true } },
    async (req, reply) => {
      // Briefly cached like the entry points it names, with an ETag so that revalidating costs a 304.
      const body = JSON.stringify(remotesConfig(opts));
      const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
      reply.header('Cache-Control', ENTRY_CACHE_CONTROL).header('ETag', etag);
      if (fresh(req.headers['if-none-match'], etag)) return reply.code(304).send();
      return reply.type('application/json; charset=utf-8').send(body);
    },
  );
});
