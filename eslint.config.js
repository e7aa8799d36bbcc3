// Lint: typescript-eslint across main, server, renderer and test, plus the module boundaries of
// STYLE.md §2.3 and docs/architecture.md's file roles: which module may import which file is
// `hearth/module-boundaries` (scripts/eslint-module-boundaries.js: stores stay in their module and
// out of routes; another module only through its schema.ts, public.ts or its services' types); what
// each role and layer may import besides is `no-restricted-imports` below. Every one of these has a
// probe in test/unit/lint-rules.test.ts. (One flat config object's no-restricted-imports replaces
// another's, so a file gets the patterns of the last object that matches it.)
import path from 'node:path';
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import hearth from './scripts/eslint-module-boundaries.js';

const restrict = (patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });

// The web app's boundaries (renderer/src/features/<x>/): a feature uses another only through that
// feature's index.ts (its public surface; never a page component, which stays lazily loaded), and
// the query cache is changed (invalidated, set, removed) only in a feature's queries.ts (or
// <part>-queries.ts).
const FEATURE_PATH = /\/renderer\/src\/features\/([^/]+)(?:\/(.*))?$/;
const CACHE_WRITES = /^(invalidateQueries|setQueryData|setQueriesData|removeQueries|resetQueries|refetchQueries|cancelQueries)$/;
const webBoundaries = {
  rules: {
    'feature-index-only': {
      meta: { type: 'problem', schema: [], messages: { internal: "Import another feature through its index ('{{index}}'), not its file '{{source}}'." } },
      create(context) {
        const file = context.filename.split(path.sep).join('/');
        const own = FEATURE_PATH.exec(file)?.[1];
        const check = (node, source) => {
          // a stylesheet is not code: an admin page may share its feature's looks (image-admin, media-admin)
          if (typeof source !== 'string' || !source.startsWith('.') || source.endsWith('.css')) return;
          const target = FEATURE_PATH.exec(path.posix.resolve(path.posix.dirname(file), source));
          if (!target || target[1] === own) return;
          const rest = (target[2] ?? '').replace(/\.(js|ts)$/, '');
          if (rest !== '' && rest !== 'index') {
            context.report({ node, messageId: 'internal', data: { source, index: source.slice(0, source.length - (target[2] ?? '').length).replace(/\/$/, '') } });
          }
        };
        return {
          ImportDeclaration: (node) => check(node.source, node.source.value),
          ExportNamedDeclaration: (node) => node.source && check(node.source, node.source.value),
          ExportAllDeclaration: (node) => check(node.source, node.source.value),
          ImportExpression: (node) => node.source.type === 'Literal' && check(node.source, node.source.value),
        };
      },
    },
    'cache-writes-in-queries': {
      meta: { type: 'problem', schema: [], messages: { outside: "The query cache is changed only in a feature's queries.ts ({{name}}): add a hook there." } },
      create(context) {
        return {
          'CallExpression > MemberExpression.callee > Identifier.property'(node) {
            if (CACHE_WRITES.test(node.name)) context.report({ node, messageId: 'outside', data: { name: node.name } });
          },
        };
      },
    },
  },
};

export default tseslint.config(
  { ignores: ['dist/**', 'release/**', 'node_modules/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-control-regex': 'off',
    },
  },
  {
    // Type-aware promise rules for the server and the Electron main process: every promise is
    // awaited, returned, `void`ed with a reason, or caught; no promise where a callback's result is
    // ignored (express handlers excepted: express 5 forwards their rejections to the error handler).
    files: ['server/**/*.ts', 'main/**/*.ts'],
    languageOptions: {
      parserOptions: { project: ['./tsconfig.server.json', './main/tsconfig.json'], tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    rules: restrict([
      { group: ['**/server/**', '!**/server/modules/', '!**/server/modules/*/', '!**/server/modules/*/schema', '!**/server/modules/*/schema.js'], message: 'The web app talks to the server over HTTP; only `import type` from server/modules/*/schema.ts.' },
      { group: ['**/server/modules/*/schema', '**/server/modules/*/schema.js'], allowTypeImports: true, message: 'Only type imports from server schemas.' },
    ]),
  },
  {
    files: ['main/**/*.ts'],
    rules: restrict([{ group: ['**/server/**', '!**/server/config', '!**/server/config.js'], message: 'main/ talks to the server over the fork and HTTP.' }]),
  },
  // A module's files are of four kinds. Route-side: routes.ts (and <part>-routes.ts, the routes of
  // a part of the module built on its own) and the request/response helpers its routes use
  // (http-io.ts). Stores: store.ts and <part>-store.ts. The manifest: module.ts. Everything else
  // under server/modules/<x>/ (services, jobs, helpers, capture/…) is service-side.
  {
    files: ['server/modules/*/routes.ts', 'server/modules/*/*-routes.ts', 'server/modules/*/http-io.ts'],
    rules: restrict([
      { group: ['knex', '**/adapters/**', '**/db/**'], message: 'Routes parse, call their service and shape the answer.' },
    ]),
  },
  {
    files: ['server/modules/*/store.ts', 'server/modules/*/*-store.ts'],
    rules: restrict([{ group: ['**/service', '**/service.js', '**/*-service', '**/*-service.js', '**/adapters/**', '**/http/**', 'express'], message: 'Stores are dumb queries.' }]),
  },
  {
    files: ['server/modules/*/**/*.ts'],
    ignores: ['server/modules/*/routes.ts', 'server/modules/*/*-routes.ts', 'server/modules/*/http-io.ts', 'server/modules/*/store.ts', 'server/modules/*/*-store.ts', 'server/modules/*/module.ts'],
    rules: restrict([
      { group: ['express', '**/http/**', '!**/http/sse', '!**/http/sse.js'], message: 'Services are transport-neutral.' },
      { group: ['**/http/sse', '**/http/sse.js'], allowTypeImports: true, message: 'Services may name a ReplayChannel type; streams are opened by routes.' },
      { group: ['knex'], allowTypeImports: true, message: 'Services use their store, not knex.' },
    ]),
  },
  // A module's manifest (module.ts) builds its own parts, routes included, from the platform and its
  // ports: it may import any file of its own module and the layers below (hearth/module-boundaries
  // keeps it off other modules' insides like every other file).
  {
    files: ['server/**/*.ts'],
    plugins: { hearth },
    rules: { 'hearth/module-boundaries': 'error' },
  },
  // The layers under the modules: platform/ (logger, bus, scheduler, sidecars…) and db/ know nothing
  // of HTTP, the modules or the composition root; http/ knows no module except that api-router.ts
  // mounts each module's routes (and takes the container's Deps type to do it).
  {
    files: ['server/platform/**/*.ts'],
    rules: restrict([{ group: ['**/http/**', '**/modules/**', '**/db/**', '**/container', '**/container.js', '**/app', '**/app.js'], message: 'platform/ is the bottom layer: no HTTP, modules, db or composition root.' }]),
  },
  {
    files: ['server/db/**/*.ts'],
    rules: restrict([{ group: ['**/http/**', '**/modules/**', '**/container', '**/container.js', '**/app', '**/app.js'], message: 'db/ opens, migrates and stores; it knows no HTTP or module.' }]),
  },
  {
    files: ['server/http/**/*.ts'],
    ignores: ['server/http/api-router.ts'],
    rules: restrict([{ group: ['**/modules/**', '**/container', '**/container.js', '**/app', '**/app.js'], message: 'http/ is shared plumbing; only api-router.ts mounts module routes.' }]),
  },
  {
    files: ['server/http/api-router.ts'],
    rules: restrict([
      { group: ['**/modules/**', '!**/modules/', '!**/modules/*/', '!**/modules/*/routes', '!**/modules/*/routes.js', '!**/modules/*/*-routes', '!**/modules/*/*-routes.js'], message: "api-router.ts mounts each module's routes and imports nothing else from a module." },
      { group: ['**/container', '**/container.js'], allowTypeImports: true, message: 'api-router.ts takes the Deps type only.' },
    ]),
  },
  {
    files: ['server/adapters/**/*.ts'],
    rules: restrict([
      { group: ['**/modules/**', '**/db/**', '**/http/**'], message: 'Adapters speak to one program; no feature logic.' },
      { group: ['**/errors', '**/errors.js', '**/adapter-errors/**'], message: 'An adapter throws its own error with a failure kind; server/adapter-errors/ turns it into an answer.' },
    ]),
  },
  {
    files: ['migrations/**/*.ts'],
    rules: restrict([{ group: ['**/server/**'], message: 'Migrations import knex only.' }]),
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  // the web app's feature boundaries (webBoundaries above; probes in test/unit/lint-rules-web.test.ts)
  {
    files: ['renderer/src/features/**/*.{ts,tsx}'],
    plugins: { web: webBoundaries },
    rules: { 'web/feature-index-only': 'error' },
  },
  {
    files: ['renderer/src/**/*.{ts,tsx}'],
    ignores: ['renderer/src/features/*/queries.ts', 'renderer/src/features/*/*-queries.ts', 'renderer/src/api/query.ts'],
    plugins: { web: webBoundaries },
    rules: { 'web/cache-writes-in-queries': 'error' },
  },
);
