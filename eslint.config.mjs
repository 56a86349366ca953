import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import i18next from 'eslint-plugin-i18next';
import i18nextDefaults from 'eslint-plugin-i18next/lib/options/defaults.js';
import tseslint from 'typescript-eslint';

/** An UPPER_CASE name, and a text of two words or more (the second lower-case), for the texts rule below. */
const UPPER_CASE = '/^[A-Z][A-Z0-9_]*$/';
const WORDS = '/[A-Za-z]+ [a-z]+/';

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
    // The web app's own texts live in web/src/i18n (the spec's in proto): no literal text anywhere in
    // web/src's code (web/src/i18n/README.md says what this sees and what it cannot). Passed: one token
    // that does not start with a capital (keys, class names, event names, URLs, CSS values), a PascalCase
    // name (error names), symbols and entities (the plugin's defaults), the messages of programmer errors
    // and console lines, and two inline style values.
    files: ['web/src/**/*.{ts,tsx}'],
    ignores: ['web/src/**/*.test.{ts,tsx}', 'web/src/**/testing/**', 'web/src/i18n/**'],
    plugins: { i18next },
    rules: {
      'i18next/no-literal-string': [
        'error',
        {
          mode: 'all',
          'should-validate-template': true,
          'jsx-attributes': { exclude: i18nextDefaults['jsx-attributes'].exclude },
          'object-properties': { exclude: ['background', 'boxShadow'] },
          words: {
            exclude: [
              ...i18nextDefaults.words.exclude,
              '[^\\sA-Z]\\S*', // one token not starting with a capital: 'sessionId', 'live-clicks', 'application/json'
              '[A-Z][a-z]+(?:[A-Z][a-z]+)+', // a PascalCase name: 'ApiError', 'NotAllowedError'
            ],
          },
          callees: {
            exclude: [
              ...i18nextDefaults.callees.exclude,
              'Error',
              'TypeError',
              'DOMException',
              'console\\.\\w+',
            ],
          },
        },
      ],
      // The plugin passes whatever an UPPER_CASE constant holds (it takes them for keys): a text of two words or more there.
      'no-restricted-syntax': [
        'error',
        {
          selector: `VariableDeclarator[id.name=${UPPER_CASE}] :matches(Literal[value=${WORDS}], TemplateElement[value.raw=${WORDS}])`,
          message: 'A text in a constant: move it to web/src/i18n/en.',
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
