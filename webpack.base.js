// One webpack + Module Federation 2 setup for the shell and every micro-frontend (docs/conventions.md#traps:
// webpack 5.110.3 pinned with @module-federation/enhanced 2.9.x; publicPath auto; dts off;
// manifest on; no runtimeChunk on remotes; HtmlWebpackPlugin without the remote entry chunk).
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');
const { promisify } = require('node:util');
const { Compilation } = require('webpack');
const HtmlWebpackPlugin = require('html-webpack-plugin');
const { ModuleFederationPlugin } = require('@module-federation/enhanced/webpack');
const { sharedDeps } = require('./webpack/shared-deps');
const { LoginBootScript } = require('./webpack/login-boot');

/** A content-hashed bundle and its compressed copies (`main.<hash>.js`, `.br`, `.gz`). */
const HASHED_FILE = /\.[0-9a-f]{16,}\.(js|css)(\.br|\.gz)?$/;
/** How long a build keeps the previous builds' hashed files: far past the entry points' caching. */
const KEEP_PREVIOUS_MS = 24 * 60 * 60 * 1000;

/**
 * `output.clean` that keeps the hashed files of builds from the last day: a browser may use an
 * index.html, mf-manifest.json or remoteEntry.js of the previous deploy for a few minutes
 * (api/src/plugins/portal.ts, ENTRY_CACHE_CONTROL), and the files it names must still be there.
 * `keepAlso` (a path relative to the output folder) is kept whatever its age.
 */
function cleanKeepingRecent(dir, keepAlso = () => false) {
  const now = Date.now();
  return {
    keep: (file) => {
      if (keepAlso(file)) return true;
      if (!HASHED_FILE.test(file)) return false;
      try {
        return now - fs.statSync(path.join(dir, file)).mtimeMs < KEEP_PREVIOUS_MS;
      } catch {
        return false;
      }
    },
  };
}

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
/** What the portal sends compressed: scripts, stylesheets, HTML and manifests. */
const COMPRESSIBLE = /\.(js|css|html|json|svg|txt)$/;

/**
 * Writes a Brotli (quality 11) and a gzip (level 9) copy beside every script, stylesheet, HTML page and
 * manifest of a production build (`main.<hash>.js.br`, `.gz`), kept only when smaller than the file:
 * the API serves the best one the browser accepts (api/src/plugins/portal.ts).
 */
class PrecompressPlugin {
  apply(compiler) {
    compiler.hooks.thisCompilation.tap('PrecompressPlugin', (compilation) => {
      compilation.hooks.processAssets.tapPromise(
        // After everything that writes or rewrites assets (the federation manifest is written at
        // OPTIMIZE_TRANSFER).
        { name: 'PrecompressPlugin', stage: Compilation.PROCESS_ASSETS_STAGE_OPTIMIZE_TRANSFER + 1 },
        async (assets) => {
          const { RawSource } = compiler.webpack.sources;
          const jobs = Object.keys(assets)
            .filter((name) => COMPRESSIBLE.test(name))
            .map(async (name) => {
              const input = compilation.getAsset(name).source.buffer();
              const [br, gz] = await Promise.all([
                brotli(input, {
                  params: {
                    [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
                    [zlib.constants.BROTLI_PARAM_SIZE_HINT]: input.length,
                  },
                }),
                gzip(input, { level: 9 }),
              ]);
              for (const [ext, out] of [
                ['br', br],
                ['gz', gz],
              ]) {
                if (out.length < input.length) {
                  compilation.emitAsset(`${name}.${ext}`, new RawSource(out), { compressed: true });
                }
              }
            });
          await Promise.all(jobs);
        },
      );
    });
  }
}

/**
 * Finds the chunks the host's first screen loads: what the entry imports itself (index.ts's
 * `import('./bootstrap')`) and, from there on, the fallback of every shared module those chunks consume
 * (Module Federation loads a chunk's shared modules with it). Chunks behind an ordinary `import()` (the
 * lazy layout and pages) are not followed.
 */
class FirstScreenChunks {
  constructor() {
    /** @type {WeakSet<import('webpack').Chunk>} */
    this.chunks = new WeakSet();
  }

  apply(compiler) {
    compiler.hooks.thisCompilation.tap('FirstScreenChunks', (compilation) => {
      // After duplicate chunks are merged (STAGE_BASIC), before SplitChunksPlugin (STAGE_ADVANCED), which
      // asks `has` below.
      compilation.hooks.optimizeChunks.tap({ name: 'FirstScreenChunks', stage: 5 }, () => {
        const { chunkGraph } = compilation;
        const chunks = new WeakSet();
        const seen = new Set();
        const queue = [];
        const visit = (group) => {
          if (seen.has(group)) return;
          seen.add(group);
          for (const chunk of group.chunks) chunks.add(chunk);
          queue.push(group);
        };
        const inGroup = (module, group) => group.chunks.some((c) => chunkGraph.isModuleInChunk(module, c));
        for (const entry of compilation.entrypoints.values()) {
          for (const child of entry.childrenIterable) {
            // The entry's own imports and consumes (not its provide-module blocks: every shared module).
            if (
              child.origins.some(
                (o) => o.module && o.module.type !== 'provide-module' && inGroup(o.module, entry),
              )
            )
              visit(child);
          }
        }
        while (queue.length > 0) {
          const group = queue.shift();
          for (const child of group.childrenIterable) {
            if (
              child.origins.some(
                (o) => o.module?.type === 'consume-shared-module' && inGroup(o.module, group),
              )
            )
              visit(child);
          }
        }
        this.chunks = chunks;
      });
    });
  }

  has(chunk) {
    return this.chunks.has(chunk);
  }
}

/**
 * A `<link rel="preload">` in the host's index.html for the 'first' chunk (hostSplitChunks), so the
 * browser fetches it beside `main` instead of after `main` has run and asked for it: one round trip
 * less before the first screen (on a phone's network, about half a second).
 */
class PreloadFirstChunk {
  apply(compiler) {
    compiler.hooks.thisCompilation.tap('PreloadFirstChunk', (compilation) => {
      HtmlWebpackPlugin.getHooks(compilation).alterAssetTagGroups.tap('PreloadFirstChunk', (data) => {
        const first = compilation.namedChunks.get('first');
        const publicPath = data.publicPath ?? '/';
        // login.html starts its scripts only once its drawn form is used (shell/src/boot-form.ts): the
        // chunk is fetched when the page is idle instead, not beside what draws the page.
        const rel = data.plugin.userOptions.loginForm ? 'prefetch' : 'preload';
        for (const file of first ? [...first.files].filter((f) => f.endsWith('.js')) : []) {
          data.headTags.unshift({
            tagName: 'link',
            voidTag: true,
            attributes: { rel, as: 'script', href: `${publicPath}${file}` },
            meta: { plugin: 'PreloadFirstChunk' },
          });
        }
        return data;
      });
    });
  }
}

/**
 * The host's lazily loaded code in two files instead of one per shared module (each shared module is
 * its own chunk, often repeating the same MUI and Emotion internals): what the first screen needs
 * ('first'), and everything after sign-in ('later'). Remotes keep one chunk per shared module: they
 * fetch only the few the host does not provide.
 */
function hostSplitChunks(firstScreen) {
  return {
    cacheGroups: {
      default: false,
      defaultVendors: false,
      lazy: {
        chunks: 'async',
        enforce: true,
        // Files only: not the federation's own consume/provide/remote modules.
        test: (module) => Boolean(module.resource),
        name: (_module, chunks) => (chunks.some((c) => firstScreen.has(c)) ? 'first' : 'later'),
      },
    },
  };
}

/**
 * @param {object} o
 * @param {string} o.dir          the package folder (__dirname of its webpack.config.js)
 * @param {string} o.name         federation name, e.g. 'mf_master_data'
 * @param {Record<string,string>} [o.exposes]  what a remote exposes
 * @param {boolean} [o.host]      the shell: builds index.html
 * @param {string} [o.title]      index.html title
 * @param {string} [o.loginPage]  the host's page with the sign-in form drawn in it (e.g. 'login.html')
 * @param {string} [o.loginTitle] that page's title (before any script runs, the tab names the page)
 * @param {string[]} [o.share]    only these shared modules (mf-public-check: React alone)
 * @param {{entry: string, template: string, title: string, folder?: string}} [o.standalone]
 *   a page of the module's own besides the remote (mf-public-check): built by a second compiler with no
 *   Module Federation (so no share scope, no federation runtime): the entry, React and nothing else,
 *   into dist/<folder>/ (default 'page') with an index.html whose scripts load from
 *   /modules/<package folder>/<folder>/.
 */
function createConfig(o) {
  const remote = remoteConfig(o);
  if (!o.standalone) return remote;
  return (env, argv) => [remote(env, argv), standaloneConfig(o, argv)];
}

/** The standalone page of a module (createConfig's `standalone` option). */
function standaloneConfig(o, argv) {
  const production = argv.mode !== 'development';
  const folder = o.standalone.folder ?? 'page';
  const publicPath = `/modules/${path.basename(o.dir)}/${folder}/`;
  return {
    name: `${o.name}_page`,
    context: o.dir,
    entry: { page: o.standalone.entry },
    mode: production ? 'production' : 'development',
    devtool: production ? false : 'eval-cheap-module-source-map',
    output: {
      path: path.join(o.dir, 'dist', folder),
      publicPath,
      filename: production ? '[name].[contenthash].js' : '[name].js',
      chunkFilename: production ? '[name].[contenthash].js' : '[name].js',
      clean: cleanKeepingRecent(path.join(o.dir, 'dist', folder)),
      uniqueName: `${o.name}_page`,
    },
    resolve: { extensions: ['.tsx', '.ts', '.mjs', '.js', '.json'] },
    module: { rules: [swcRule()] },
    plugins: [
      new HtmlWebpackPlugin({
        template: path.join(o.dir, o.standalone.template),
        title: o.standalone.title,
        publicPath,
      }),
      ...(production ? [new PrecompressPlugin()] : []),
    ],
    // One file: the page needs all of it at once.
    optimization: { splitChunks: false, runtimeChunk: false },
    performance: { hints: false },
    stats: 'errors-warnings',
  };
}

function swcRule() {
  return {
    test: /\.[cm]?[jt]sx?$/,
    exclude: /node_modules/,
    use: {
      loader: 'swc-loader',
      options: {
        jsc: {
          parser: { syntax: 'typescript', tsx: true },
          transform: { react: { runtime: 'automatic' } },
          target: 'es2022',
        },
      },
    },
  };
}

function remoteConfig(o) {
  const pkg = require(path.join(o.dir, 'package.json'));
  return (_env, argv) => {
    const production = argv.mode !== 'development';
    const firstScreen = new FirstScreenChunks();
    return {
      context: o.dir,
      // A remote needs no page entry: Module Federation adds its container (remoteEntry.js).
      entry: o.host ? { main: './src/index.ts' } : {},
      mode: production ? 'production' : 'development',
      // Production builds carry no source maps (docs/rules.md#api-conventions: they would publish the sources).
      devtool: production ? false : 'eval-cheap-module-source-map',
      output: {
        path: path.join(o.dir, 'dist'),
        publicPath: 'auto',
        filename: production ? '[name].[contenthash].js' : '[name].js',
        chunkFilename: production ? '[name].[contenthash].js' : '[name].js',
        // The standalone page's folder is its own compiler's to clean.
        clean: cleanKeepingRecent(path.join(o.dir, 'dist'), (file) =>
          Boolean(o.standalone && file.startsWith(`${o.standalone.folder ?? 'page'}/`)),
        ),
        uniqueName: o.name,
      },
      resolve: { extensions: ['.tsx', '.ts', '.mjs', '.js', '.json'] },
      module: {
        rules: [
          {
            test: /\.[cm]?[jt]sx?$/,
            exclude: /node_modules/,
            use: {
              loader: 'swc-loader',
              options: {
                jsc: {
                  parser: { syntax: 'typescript', tsx: true },
                  transform: { react: { runtime: 'automatic' } },
                  target: 'es2022',
                },
              },
            },
          },
        ],
      },
      plugins: [
        new ModuleFederationPlugin({
          name: o.name,
          filename: 'remoteEntry.js',
          exposes: o.exposes ?? {},
          remotes: {},
          shared: o.share
            ? Object.fromEntries(Object.entries(sharedDeps(pkg)).filter(([key]) => o.share.includes(key)))
            : sharedDeps(pkg),
          // Use what is already loaded (the shell's copies) instead of first fetching every registered
          // remote's entry to compare versions ('version-first'): a module that is down must not stop
          // the shell from loading its own lazy chunks.
          shareStrategy: 'loaded-first',
          dts: false,
          manifest: true,
        }),
        ...(o.host
          ? [
              new HtmlWebpackPlugin({
                template: path.join(o.dir, 'src', 'index.html'),
                title: o.title,
                // The shell answers every client route (/company-certificate/<id> too): absolute URLs.
                publicPath: '/',
                excludeChunks: [o.name],
              }),
              // The same page with the sign-in form drawn in it (`loginForm` in the template), for
              // /login alone (api/src/plugins/portal.ts): the form shows before the scripts arrive.
              ...(o.loginPage
                ? [
                    new HtmlWebpackPlugin({
                      template: path.join(o.dir, 'src', 'index.html'),
                      filename: o.loginPage,
                      title: o.loginTitle ?? o.title,
                      publicPath: '/',
                      excludeChunks: [o.name],
                      loginForm: true,
                    }),
                  ]
                : []),
            ]
          : []),
        ...(o.host ? [firstScreen, new PreloadFirstChunk(), new LoginBootScript()] : []),
        ...(production ? [new PrecompressPlugin()] : []),
      ],
      optimization: o.host ? { splitChunks: hostSplitChunks(firstScreen) } : { runtimeChunk: false },
      performance: { hints: false },
      stats: 'errors-warnings',
    };
  };
}

module.exports = { createConfig, sharedDeps };
