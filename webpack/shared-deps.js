// What the shell and every micro-frontend share through Module Federation (webpack.base.js): the
// singletons with the versions each package.json asks for (docs/conventions.md#traps).
const path = require('node:path');

/** The files of @mui/material that create a React context (`grep -rl createContext --include=*.mjs`). */
const MUI_CONTEXT_FILES = [
  'Accordion/AccordionContext.mjs',
  'ButtonGroup/ButtonGroupButtonContext.mjs',
  'ButtonGroup/ButtonGroupContext.mjs',
  'Dialog/DialogContext.mjs',
  'FormControl/FormControlContext.mjs',
  'ImageList/ImageListContext.mjs',
  'List/ListContext.mjs',
  'MenuList/MenuListContext.mjs',
  'RadioGroup/RadioGroupContext.mjs',
  'Select/utils/SelectFocusSourceContext.mjs',
  'Step/StepContext.mjs',
  'Stepper/StepperContext.mjs',
  'Table/TableContext.mjs',
  'Table/Tablelvl2Context.mjs',
  'ToggleButtonGroup/ToggleButtonGroupButtonContext.mjs',
  'ToggleButtonGroup/ToggleButtonGroupContext.mjs',
];

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
    for (const file of MUI_CONTEXT_FILES) {
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

module.exports = { sharedDeps, MUI_CONTEXT_FILES };
