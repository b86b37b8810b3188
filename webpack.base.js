// One webpack + Module Federation 2 setup for the shell and every micro-frontend (CONVENTIONS.md:
// webpack 5.110.3 pinned with @module-federation/enhanced 2.9.x; publicPath auto; dts off;
// manifest on; no runtimeChunk on remotes; HtmlWebpackPlugin without the remote entry chunk).
const path = require('node:path');
const HtmlWebpackPlugin = require('html-webpack-plugin');
const { ModuleFederationPlugin } = require('@module-federation/enhanced/webpack');

/** Shared singletons, with the versions each package.json asks for. */
function sharedDeps(pkg) {
  const deps = { ...pkg.dependencies };
  const version = (name) => deps[name] ?? require(`${name}/package.json`).version;
  const singleton = (name, extra = {}) => ({ singleton: true, requiredVersion: version(name), ...extra });
  const shared = {
    react: singleton('react'),
    'react/': singleton('react'),
    'react-dom': singleton('react-dom'),
    'react-dom/': singleton('react-dom'),
  };
  if (deps['react-router-dom']) shared['react-router-dom'] = singleton('react-router-dom');
  if (deps['@mui/material']) {
    Object.assign(shared, {
      '@mui/material': singleton('@mui/material'),
      '@mui/material/': singleton('@mui/material'),
      '@mui/system/': singleton('@mui/material', { requiredVersion: false }),
      '@mui/icons-material/': singleton('@mui/icons-material'),
      '@emotion/react': singleton('@emotion/react'),
      '@emotion/styled': singleton('@emotion/styled'),
    });
  }
  if (deps.zustand) shared.zustand = singleton('zustand');
  if (deps.dayjs) Object.assign(shared, { dayjs: singleton('dayjs'), 'dayjs/': singleton('dayjs') });
  if (deps.formik) shared.formik = singleton('formik');
  if (deps.yup) shared.yup = singleton('yup');
  for (const own of ['@sertifikasi/shared-auth', '@sertifikasi/shared-ui', '@sertifikasi/shared-contracts']) {
    if (deps[own]) shared[own] = singleton(own);
  }
  // shared-ui's small entry (theme and the one toast), shared on its own so the login page can load it
  // without the rest of shared-ui.
  if (deps['@sertifikasi/shared-ui']) {
    shared['@sertifikasi/shared-ui/core'] = {
      singleton: true,
      requiredVersion: deps['@sertifikasi/shared-ui'],
    };
  }
  return shared;
}

/**
 * @param {object} o
 * @param {string} o.dir          the package folder (__dirname of its webpack.config.js)
 * @param {string} o.name         federation name, e.g. 'mf_master_data'
 * @param {Record<string,string>} [o.exposes]  what a remote exposes
 * @param {boolean} [o.host]      the shell: builds index.html
 * @param {string} [o.title]      index.html title
 */
function createConfig(o) {
  const pkg = require(path.join(o.dir, 'package.json'));
  return (_env, argv) => {
    const production = argv.mode !== 'development';
    return {
      context: o.dir,
      // A remote needs no page entry: Module Federation adds its container (remoteEntry.js).
      entry: o.host ? { main: './src/index.ts' } : {},
      mode: production ? 'production' : 'development',
      devtool: production ? 'source-map' : 'eval-cheap-module-source-map',
      output: {
        path: path.join(o.dir, 'dist'),
        publicPath: 'auto',
        filename: production ? '[name].[contenthash].js' : '[name].js',
        chunkFilename: production ? '[name].[contenthash].js' : '[name].js',
        clean: true,
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
          shared: sharedDeps(pkg),
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
            ]
          : []),
      ],
      optimization: o.host ? {} : { runtimeChunk: false },
      performance: { hints: false },
      stats: 'errors-warnings',
    };
  };
}

module.exports = { createConfig, sharedDeps };
