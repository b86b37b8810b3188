// One ESLint config for the whole monorepo (type-aware for TypeScript sources).
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';

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
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/api/src/**', '@sertifikasi/api/*'], message: 'Nothing outside api/ imports api/.' },
          ],
        },
      ],
    },
  },
  {
    // shared-ui's core entry is one shared singleton: the rest of shared-ui reaches it by package path.
    files: ['shared-ui/src/**'],
    ignores: ['shared-ui/src/core/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/api/src/**', '@sertifikasi/api/*'], message: 'Nothing outside api/ imports api/.' },
            {
              group: ['./core', './core/**', '../core', '../core/**', '../../core', '../../core/**'],
              message:
                "Import from '@sertifikasi/shared-ui/core': a relative import makes a second toast store.",
            },
          ],
        },
      ],
    },
  },
  {
    // Benchmarks measure the real app in-process (CONVENTIONS.md: bench may import anything).
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
