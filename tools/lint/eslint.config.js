// ESLint for the whole tree: `npm run lint` (part of `npm test` and CI).
// Formatting is Prettier's (`npm run format`); this config only turns off the rules
// that would fight it.
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import { importX } from 'eslint-plugin-import-x';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const root = fileURLToPath(new URL('../..', import.meta.url));
const folders = (dir) =>
  readdirSync(`${root}/${dir}`, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

const services = folders('services');
const features = folders('web/src/features');

/** Tests and their helpers may start other services (integration tests need a real identity). */
const testFiles = ['**/*.spec.ts', '**/*.spec.tsx', '**/src/test/**', '**/e2e/**', 'bench/**'];

export default tseslint.config(
  {
    ignores: ['**/node_modules/**', '**/dist/**', 'test-results/**', 'playwright-report/**', 'coverage/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: ['tsconfig.json', 'web/tsconfig.json'],
          alwaysTryTypes: true,
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-self-import': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  // A service never imports another service: what it needs from one it learns from events.
  ...services.map((service) => ({
    files: [`services/${service}/**/*.ts`],
    ignores: testFiles,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: services
                .filter((other) => other !== service)
                .flatMap((other) => [`@sleepweave/${other}`, `**/services/${other}/**`, `../../${other}/**`, `../../../${other}/**`]),
              message: 'Services never import each other: consume its integration events (libs/contracts) instead.',
            },
          ],
        },
      ],
    },
  })),
  // The gateway and the libraries never import a service either.
  {
    files: ['gateway/**/*.ts', 'libs/**/*.ts'],
    ignores: testFiles,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/services/**', ...services.map((s) => `@sleepweave/${s}`)], message: 'Only tests may reach into a service.' },
          ],
        },
      ],
    },
  },
  // The apps call each other through node:http (libs/service-kit/src/http-client.ts): Node's
  // fetch, once called, keeps its own undici and WebAssembly parser in the process.
  {
    files: ['gateway/**/*.ts', 'libs/**/*.ts', 'services/**/*.ts'],
    ignores: testFiles,
    rules: {
      'no-restricted-globals': [
        'error',
        { name: 'fetch', message: 'Call another app with callService (@sleepweave/service-kit): fetch keeps ~4 MB in the process.' },
      ],
    },
  },
  // The web app: React rules, accessibility, and features that never import each other.
  {
    files: ['web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...jsxA11y.flatConfigs.recommended.rules,
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: features.map((feature) => ({
            target: `web/src/features/${feature}`,
            from: 'web/src/features',
            except: [`./${feature}`],
            message: 'A feature never imports another feature: move what both need to web/src/components or web/src/lib.',
          })),
        },
      ],
    },
  },
  prettier,
);
