import path from 'node:path'
import boundaries from 'eslint-plugin-boundaries'
import reactHooks from 'eslint-plugin-react-hooks'
import tseslint from 'typescript-eslint'

/*
 * The layers of the app (docs/adding-a-feature.md, docs/decisions/022-layers-checked-by-a-linter.md).
 * A route may import modules, platform and components; the arrows below must never point the other way.
 * Every rule is an error or off: a warning is read once and then ignored.
 */
const ROUTES = 'route-*'

export default [
  {
    ignores: [
      'build/',
      'build-*/',
      '.react-router/',
      'node_modules/',
      'data/',
      'tmp/',
      'public/',
      'test-results/',
      'playwright-report/',
    ],
  },
  {
    files: ['**/*.{ts,tsx,js}'],
    languageOptions: { parser: tseslint.parser, ecmaVersion: 'latest', sourceType: 'module' },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    plugins: { boundaries },
    settings: {
      'import/resolver': { [path.join(import.meta.dirname, 'eslint-app-resolver.cjs')]: {} },
      'boundaries/elements': [
        { type: 'platform', pattern: 'app/platform', partialMatch: false },
        { type: 'module', pattern: 'app/modules', partialMatch: false },
        { type: 'component', pattern: 'app/components', partialMatch: false },
        { type: 'route-public', pattern: 'app/routes/public', partialMatch: false },
        { type: 'route-admin', pattern: 'app/routes/admin', partialMatch: false },
        { type: 'route-auth', pattern: 'app/routes/auth', partialMatch: false },
        { type: 'route-resources', pattern: 'app/routes/resources', partialMatch: false },
        // Migrations, demo content and their runner: start-up wiring that knows every feature.
        { type: 'db', pattern: 'db', partialMatch: false },
      ],
      'boundaries/files': [{ category: 'server-only', pattern: '**/*.server.{ts,tsx}' }],
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'allow',
          policies: [
            {
              from: { element: { type: 'platform' } },
              disallow: { to: { element: { type: ['module', 'component', ROUTES, 'db'] } } },
              message: 'platform/ knows no feature: it imports no module, route, component or db/ file',
            },
            {
              from: { element: { type: 'module' } },
              disallow: { to: { element: { type: ['component', ROUTES] } } },
              message: 'A module imports no route or component: move what both need into the module or platform/',
            },
            {
              from: { element: { type: 'component' } },
              disallow: { to: { element: { type: ROUTES } } },
              message: 'A component imports no route: move what both need into a component or module',
            },
            {
              from: { element: { type: 'component' } },
              disallow: { to: { file: { categories: 'server-only' } } },
              message: 'A component imports no *.server file: it would reach the browser bundle',
            },
            {
              from: { element: { type: 'route-public' } },
              disallow: { to: { element: { type: 'route-admin' } } },
              message: 'Public routes do not import admin routes: share through a component or module',
            },
            {
              from: { element: { type: 'route-admin' } },
              disallow: { to: { element: { type: 'route-public' } } },
              message: 'Admin routes do not import public routes: share through a component or module',
            },
          ],
        },
      ],
    },
  },
  // Tests may reach across layers to set up what they check; they are not shipped.
  { files: ['**/*.test.{ts,tsx}'], rules: { 'boundaries/dependencies': 'off' } },
  {
    files: ['app/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      // React and React Router are used through their public API: their UNSAFE_ exports change without notice.
      'no-restricted-syntax': [
        'error',
        {
          selector: 'ImportSpecifier[imported.name=/^UNSAFE_/]',
          message: 'Use the public API of React and React Router: UNSAFE_ exports change without notice.',
        },
      ],
    },
  },
]
