import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import i18next from 'eslint-plugin-i18next';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '**/coverage/**', '.data/**', 'web/e2e/output/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node },
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['**/*.js', '**/*.cjs', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
    rules: { ...tseslint.configs.disableTypeChecked.rules, '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['**/test/**/*.ts', '**/*.test.ts', '**/*.spec.ts', 'scripts/system-tests/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    // The browser bundles proto's zod-free entry only: a value import of the index would pull every schema in.
    // (web/e2e runs in Node, not in the bundle: it may read proto's route table itself.)
    // The live client is bundled by the browser too.
    files: ['web/src/**/*.{ts,tsx}', 'services/live-client/src/**/*.ts'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@uis/proto',
              message: "Import values from '@uis/proto/browser'; only types may come from '@uis/proto'.",
              allowTypeImports: true,
            },
          ],
        },
      ],
    },
  },
  {
    // The web app's own texts live in web/src/i18n (the spec's in proto): no literal text in a component,
    // neither JSX text nor a literal in JSX (a conditional text) nor a visible attribute below. Symbols
    // alone ('·', '…', '×') pass: the rule's default words list lets HTML entities through.
    files: ['web/src/**/*.tsx'],
    ignores: ['web/src/**/*.test.tsx'],
    plugins: { i18next },
    rules: {
      'i18next/no-literal-string': [
        'error',
        {
          mode: 'jsx-only',
          'jsx-attributes': { include: ['aria-label', 'title', 'placeholder', 'alt'] },
        },
      ],
    },
  },
  {
    // Playwright sends functions to the page: they use the browser's globals.
    files: ['web/e2e/**/*.ts', 'scripts/bench/web/**/*.ts'],
    languageOptions: { globals: { ...globals.browser } },
  },
  prettier,
);
