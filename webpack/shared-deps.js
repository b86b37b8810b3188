// What the shell and every micro-frontend share through Module Federation (webpack.base.js): the
// singletons with the versions each package.json asks for (docs/conventions.md#traps).
const fs = require('node:fs');
const path = require('node:path');

/** A module that creates a React context: `React.createContext(` or an imported `createContext(`. */
const CREATES_CONTEXT = /\bcreateContext\s*\(/;

/**
 * The files under a package's folder that create a React context, as paths inside it ('/'-separated,
 * sorted): its ES module build (`.mjs`, what webpack resolves an import to), outside any nested
 * node_modules. Read at build time, so that a new version's new context file is shared too.
 */
function contextFiles(dir) {
  const found = fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.mjs'))
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .filter((file) => !file.split('/').includes('node_modules'))
    .filter((file) => CREATES_CONTEXT.test(fs.readFileSync(path.join(dir, file), 'utf8')))
    .sort();
  // None at all: the package's layout changed, and sharing nothing would bring the bug back quietly.
  if (found.length === 0) throw new Error(`No .mjs file creating a React context found in ${dir}`);
  return found;
}

let muiContexts;
/** The files of the installed @mui/material that create a React context, scanned once per build. */
function muiContextFiles() {
  muiContexts ??= contextFiles(path.dirname(require.resolve('@mui/material/package.json')));
  return muiContexts;
}

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
  if (deps['react-router-dom']) {
    // The browser half of React Router only (webpack/react-router-dom.mjs): a shared module is not
    // tree-shaken, its own imports are.
    shared['react-router-dom'] = singleton('react-router-dom', {
      import: path.join(__dirname, 'react-router-dom.mjs'),
      version: require('react-router-dom/package.json').version,
    });
  }
  if (deps['@mui/material']) {
    Object.assign(shared, {
      '@mui/material': singleton('@mui/material'),
      '@mui/material/': singleton('@mui/material'),
      '@mui/system/': singleton('@mui/material', { requiredVersion: false }),
      '@mui/icons-material/': singleton('@mui/icons-material'),
      '@emotion/react': singleton('@emotion/react'),
      '@emotion/styled': singleton('@emotion/styled'),
    });
    // MUI's React contexts, one instance for every bundle. A deep import ('@mui/material/InputLabel')
    // is shared on its own, with the files it imports by relative path inside it: when one bundle's
    // FormControl and another's InputLabel meet (the date pickers compose both), each read its own
    // copy of FormControlContext and the label lost its place and its '*'. Matched by their path
    // under node_modules, the context files themselves are shared.
    for (const file of muiContextFiles()) {
      shared[`@mui/material/${file}`] = singleton('@mui/material', {
        allowNodeModulesSuffixMatch: true,
        // The package's exports map hides the file from a bare request: its path, then.
        import: path.join(path.dirname(require.resolve('@mui/material/package.json')), file),
        version: require('@mui/material/package.json').version,
      });
    }
  }
  if (deps['@mui/x-date-pickers']) {
    Object.assign(shared, {
      '@mui/x-date-pickers': singleton('@mui/x-date-pickers'),
      '@mui/x-date-pickers/': singleton('@mui/x-date-pickers'),
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

module.exports = { sharedDeps, contextFiles, muiContextFiles };
