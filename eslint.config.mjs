// One ESLint config for the whole monorepo (type-aware for TypeScript sources).
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import fs from 'node:fs';

const NOT_API = {
  group: ['**/api/src/**', '@sertifikasi/api', '@sertifikasi/api/*'],
  message: 'Nothing outside api/ imports api/.',
};
const pkg = (name) => [`@sertifikasi/${name}`, `@sertifikasi/${name}/*`, `**/${name}/src/**`];
/** The micro-frontends' folders: the one list of remotes (shared-contracts/src/remotes.json). */
const MODULES = JSON.parse(
  fs.readFileSync(new URL('./shared-contracts/src/remotes.json', import.meta.url), 'utf8'),
).map((r) => r.folder);
const never = (names, message) => ({ group: names.flatMap(pkg), message });

/** Import boundaries of docs/conventions.md#the-parts-and-what-each-may-import. */
const HOUSE = [
  {
    files: ['shared-contracts/**'],
    patterns: [
      never(['shared-auth', 'shared-ui', 'shell', ...MODULES], 'shared-contracts imports nothing of ours.'),
    ],
  },
  {
    files: ['shared-auth/**'],
    patterns: [never(['shared-ui', 'shell', ...MODULES], 'shared-auth may import shared-contracts only.')],
  },
  {
    files: ['shared-ui/**'],
    patterns: [never(['shell', ...MODULES], 'shared-ui may import shared-contracts and shared-auth only.')],
  },
  {
    // shared-ui's core entry is one shared singleton: the rest of shared-ui reaches it by package path.
    files: ['shared-ui/src/**'],
    ignores: ['shared-ui/src/core/**'],
    patterns: [
      never(['shell', ...MODULES], 'shared-ui may import shared-contracts and shared-auth only.'),
      {
        group: ['./core', './core/**', '../core', '../core/**', '../../core', '../../core/**'],
        message: "Import from '@sertifikasi/shared-ui/core': a relative import makes a second toast store.",
      },
    ],
  },
  {
    files: ['shell/**'],
    patterns: [never(MODULES, 'The shell loads modules only through Module Federation.')],
  },
  ...MODULES.map((name) => ({
    files: [`${name}/**`],
    patterns: [
      never(
        ['shell', ...MODULES.filter((other) => other !== name)],
        'A micro-frontend never imports the shell or another micro-frontend.',
      ),
    ],
  })),
];

/**
 * Layers inside api/ (docs/architecture.md#the-api-apisrc): route -> service -> repository -> db,
 * with lib/ (what any layer may use) below them all. Each folder lists what it never imports.
 */
const API_LAYERS = [
  {
    files: ['api/src/lib/**'],
    patterns: [
      {
        group: ['**/plugins/*', '**/services/*', '**/modules/**', '**/notify/*', '**/jobs/*', '**/demo/*'],
        message:
          'lib/ is below every layer: it imports no plugin, service, module, notify, jobs or demo file.',
      },
    ],
  },
  {
    files: ['api/src/db/**', 'api/src/config.ts'],
    patterns: [
      {
        group: ['**/plugins/*', '**/services/*', '**/modules/**', '**/notify/*', '**/jobs/*', '**/demo/*'],
        message:
          'db/ and config.ts are below the services: they import no plugin, service, module, notify, jobs or demo file.',
      },
    ],
  },
  {
    files: ['api/src/plugins/**'],
    patterns: [
      {
        group: ['**/modules/**', '**/demo/*'],
        message:
          'A plugin is one concern of the app, below the modules: it imports no module (app.ts hands it what it needs).',
      },
    ],
  },
  {
    files: ['api/src/services/**', 'api/src/modules/*/*.service.ts', 'api/src/notify/**', 'api/src/jobs/**'],
    patterns: [
      {
        group: ['**/*.routes', '**/plugins/*'],
        message: 'A service is below the routes: it imports no routes file and no Fastify plugin.',
      },
    ],
  },
  {
    files: ['api/src/modules/*/*.repository.ts'],
    patterns: [
      {
        group: [
          '**/*.routes',
          '**/*.service',
          '**/plugins/*',
          '**/services/after-write',
          '**/services/audit',
          '**/services/write-sequence',
        ],
        message: 'A repository reads: it imports no routes, service or plugin, nor the write sequence.',
      },
    ],
  },
];

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/build/**',
      '**/.tsbuild/**',
      '**/.nx/**',
      '**/data/**',
      'api/drizzle/**',
      // Generated from the routes (npm run openapi --workspace api).
      'api/openapi/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-floating-promises': 'error',
      // Fastify plugins are async functions by contract, awaiting or not.
      '@typescript-eslint/require-await': 'off',
      'no-restricted-imports': ['error', { patterns: [NOT_API] }],
    },
  },
  // The house (docs/conventions.md#the-parts-and-what-each-may-import): who may import whom, by package and by relative path alike.
  ...HOUSE.map(({ files, ignores, patterns }) => ({
    files,
    ...(ignores ? { ignores } : {}),
    rules: { 'no-restricted-imports': ['error', { patterns: [NOT_API, ...patterns] }] },
  })),
  ...API_LAYERS.map(({ files, patterns }) => ({
    files,
    rules: { 'no-restricted-imports': ['error', { patterns: [...patterns] }] },
  })),
  {
    // mf-public-check loads alone on a phone (a QR scan): React and the yup-free contracts entry only
    // (docs/conventions.md#traps; bench/README.md budget). Repeats the module's house patterns: a later block replaces them.
    files: ['mf-public-check/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@sertifikasi/shared-contracts',
              message: "Import '@sertifikasi/shared-contracts/public': the main entry brings yup.",
            },
          ],
          patterns: [
            NOT_API,
            ...HOUSE.find((h) => h.files.includes('mf-public-check/**')).patterns,
            {
              group: [
                '@mui/*',
                '@emotion/*',
                'formik',
                'formik/*',
                'yup',
                'yup/*',
                ...pkg('shared-ui'),
                ...pkg('shared-auth'),
              ],
              message:
                'mf-public-check uses no MUI, shared-ui, shared-auth, formik or yup: it must stay small.',
            },
          ],
        },
      ],
    },
  },
  {
    // React's rules of hooks, and every value an effect or a memo reads among its dependencies (a
    // deliberate exception is written next to the line, with why). --max-warnings 0 makes both errors.
    files: [
      'shared-ui/**/*.{ts,tsx}',
      'shared-auth/**/*.{ts,tsx}',
      'shell/**/*.{ts,tsx}',
      ...MODULES.map((m) => `${m}/**/*.{ts,tsx}`),
    ],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    // `@sertifikasi/shared-ui/test` (the faked network, jest's globals) is for test files only: a
    // screen importing it would ship test code.
    files: ['**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}', '**/test/**', '**/__tests__/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "ImportDeclaration[source.value='@sertifikasi/shared-ui/test']",
          message: '@sertifikasi/shared-ui/test is for tests only.',
        },
        {
          selector: "ImportExpression[source.value='@sertifikasi/shared-ui/test']",
          message: '@sertifikasi/shared-ui/test is for tests only.',
        },
      ],
    },
  },
  {
    // Benchmarks measure the real app in-process (docs/conventions.md#the-parts-and-what-each-may-import: bench may import anything).
    files: ['bench/**'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: ['**/*.{js,mjs,cjs}'],
    ...tseslint.configs.disableTypeChecked,
    rules: { ...tseslint.configs.disableTypeChecked.rules, '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['**/*.test.{ts,tsx}', '**/test/**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
    },
  },
  prettier,
);
