import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import boundaries from 'eslint-plugin-boundaries';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '.tools/**',
      'data/**',
      '**/test-results/**',
      '.test-output/**',
      'apps/web/public/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks, boundaries },
    settings: {
      'boundaries/elements': [
        { type: 'app', pattern: 'apps/web/src/app/**' },
        { type: 'feature', pattern: 'apps/web/src/features/*/**', capture: ['feature'] },
        { type: 'shared', pattern: 'apps/web/src/{components,lib,config,assets,content}/**' },
      ],
      'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js'] } },
    },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // Import boundaries (house rule 1): shared → features → app; a feature never imports another.
      'boundaries/dependencies': [
        'error',
        {
          default: 'disallow',
          policies: [
            { from: { element: { type: 'shared' } }, allow: { to: { element: { type: 'shared' } } } },
            {
              from: { element: { type: 'feature' } },
              allow: [
                { to: { element: { type: 'shared' } } },
                { to: { element: { type: 'feature', captured: { feature: '{{from.captured.feature}}' } } } },
              ],
            },
            {
              from: { element: { type: 'app' } },
              allow: { to: { element: { types: { anyOf: ['shared', 'feature', 'app'] } } } },
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/server/src/**/*.ts'],
    plugins: { boundaries },
    settings: {
      'boundaries/elements': [
        { type: 'server-lib', pattern: 'apps/server/src/{lib,db}', partialMatch: false },
        { type: 'server-shared', pattern: 'apps/server/src/shared', partialMatch: false },
        {
          type: 'server-feature',
          pattern: 'apps/server/src/modules/*',
          partialMatch: false,
          capture: ['feature'],
        },
        { type: 'server-identity', pattern: 'apps/server/src/identity', partialMatch: false },
      ],
      'import/resolver': { node: { extensions: ['.ts', '.js'] } },
    },
    rules: {
      // Server layers (docs/architecture.md): config → lib → shared → features → app.ts → server.ts, imports
      // only downwards; a feature reaches another feature through that feature's service.ts only.
      'boundaries/dependencies': [
        'error',
        {
          default: 'disallow',
          policies: [
            { from: { element: { type: 'server-lib' } }, allow: { to: { element: { type: 'server-lib' } } } },
            {
              from: { element: { type: 'server-shared' } },
              allow: { to: { element: { types: { anyOf: ['server-lib', 'server-shared'] } } } },
            },
            {
              from: { element: { type: 'server-feature' } },
              allow: [
                { to: { element: { types: { anyOf: ['server-lib', 'server-shared'] } } } },
                { to: { element: { type: 'server-feature', internalPath: 'service.ts' } } },
              ],
            },
            {
              from: { element: { type: 'server-identity' } },
              allow: { to: { element: { types: { anyOf: ['server-lib', 'server-shared'] } } } },
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/server/src/{lib,db,shared,modules,identity}/**/*.ts', 'apps/server/src/config.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/app.ts', '**/server.ts'],
              message: 'Only server.ts imports app.ts; nothing imports server.ts.',
            },
          ],
        },
      ],
    },
  },
  {
    // One guard for pages that need sign-in (components/auth/sign-in-required.ts), not an effect per page.
    files: ['apps/web/src/features/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.name='useEffect'] CallExpression[callee.property.name='signIn']",
          message: 'Een pagina die inloggen vraagt, roept useSignInRequired() aan (components/auth).',
        },
      ],
    },
  },
  {
    // The web app calls the API only through its client (token, errors, idempotency keys).
    files: ['apps/web/src/**/*.{ts,tsx}'],
    ignores: ['apps/web/src/lib/api-*.ts', '**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-globals': [
        'error',
        { name: 'fetch', message: 'Roep de API aan via lib/api-client.ts (useApiClient), niet met fetch.' },
      ],
    },
  },
  {
    // No fixed sleeps in tests (docs/performance.md, "Tests"): wait for the condition instead (expect.poll,
    // Playwright's expect, an event, a promise a stand-in resolves). Waiting in a loop that checks, and a wait
    // where time itself is under test (said in an eslint-disable comment), are allowed.
    files: ['apps/server/test/**/*.ts', '**/*.test.{ts,tsx}', 'e2e/**/*.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          property: 'waitForTimeout',
          message: 'Wacht op wat je verwacht (expect, afterPaint), niet op de klok.',
        },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "NewExpression[callee.name='Promise'][arguments.0.body.callee.name='setTimeout'][arguments.0.body.arguments.0.type='Identifier']:not(:matches(WhileStatement, DoWhileStatement, ForStatement, ForOfStatement, ForInStatement) NewExpression)",
          message:
            'Geen vaste pauze in een test: wacht op de voorwaarde (expect.poll, een event of een belofte).',
        },
        {
          selector: 'ImportDeclaration[source.value=/^(node:)?timers.promises$/]',
          message:
            'Geen vaste pauze in een test: wacht op de voorwaarde (expect.poll, een event of een belofte).',
        },
      ],
    },
  },
);
