import { builtinModules } from 'node:module';
import boundaries from 'eslint-plugin-boundaries';
import tseslint from 'typescript-eslint';

const restrict = (patterns, message) => ({
  'no-restricted-imports': ['error', { patterns: [{ group: patterns, message }] }],
});
// Node's own modules, with and without `node:` (`os` as well as `node:os`).
const nodeModules = ['node:*', ...builtinModules.filter((name) => !name.startsWith('_'))];

/**
 * The layers (docs/architecture.md). A file belongs to the element of its folder; an import between two elements is
 * refused unless a policy below allows it (the allowlist). Files under a test/ folder are checked more loosely.
 */
const elements = [
  ['shared', 'shared'],
  ['renderer', 'renderer'],
  ['preload', 'preload'],
  ['native', 'native'],
  ['core', 'main/core'],
  ['runtime', 'main/runtime'],
  // The mock backend is one element in two halves (provider and platform) over one file; listed before the
  // provider and platform folders, so its folders belong to it.
  ['mock', ['main/providers/mock', 'main/platform/mock']],
  ['dbus', 'main/dbus'],
  ['provider', 'main/providers'],
  ['platform', 'main/platform'],
  ['xpath', 'main/xpath'],
  ['services', 'main/services'],
  ['api', 'main/api'],
  ['backends', 'main/backends'],
  ['desktop', 'main/desktop'],
  ['cli', 'main/cli'],
  ['hosts', 'main/hosts'],
  ['electron', 'main/electron'],
  ['mcp', 'main/mcp'],
  ['tooling', ['bench', 'e2e', 'scripts']],
].map(([type, pattern]) => ({ type, pattern, partialMatch: false }));

const files = [
  { category: 'test', pattern: '**/test/**' },
  // The entry points: the only files that link the concrete backends in (main/backends/linux.ts, mock.ts).
  { category: 'entry', pattern: ['main/cli/index.ts', 'main/electron/main.ts', 'main/electron/runtime-host-main.ts'] },
  // The front ends' runtime flags (--provider, --mock-file ...): backend-neutral, so every front end may use it.
  { category: 'flags', pattern: 'main/backends/flags.ts' },
];

const may = (from, to) => ({
  from: { element: { type: from } },
  allow: { to: { element: { types: { anyOf: to } } } },
});

// What the front ends (the CLI, the hosts) build on.
const engine = ['services', 'xpath', 'runtime', 'core', 'shared'];

const policies = [
  // Packages (node_modules, Node's own modules) are governed by no-restricted-imports (below).
  { allow: { to: { module: { origin: ['external', 'core'] } } } },
  may('shared', ['shared']),
  may('renderer', ['renderer', 'shared']),
  may('native', ['native', 'shared']),
  may('core', ['core', 'shared']),
  may('runtime', ['runtime', 'core', 'shared']),
  // The project's own D-Bus client (socket, authentication, wire format).
  may('dbus', ['dbus', 'shared']),
  may('provider', ['provider', 'core', 'dbus', 'native', 'shared']),
  may('platform', ['platform', 'core', 'native', 'shared']),
  may('mock', ['mock', 'core', 'shared']),
  may('xpath', ['xpath', 'runtime', 'core', 'shared']),
  may('services', ['services', 'xpath', 'runtime', 'core', 'shared']),
  may('api', ['api', ...engine]),
  may('backends', ['backends', 'provider', 'platform', 'mock', 'runtime', 'core', 'shared']),
  // The virtual desktop (Linux processes: Xvfb, D-Bus, AT-SPI, openbox) that `serve` and `virtual-desktop` start;
  // it switches accessibility on over the D-Bus client.
  may('desktop', ['desktop', 'dbus', 'shared']),
  may('cli', ['cli', 'api', 'hosts', 'desktop', 'mcp', ...engine]),
  // The MCP server for agents (`platynui-inspector mcp`): on the services, as the CLI is; api only for its limits.
  may('mcp', ['mcp', 'api', ...engine]),
  may('hosts', ['hosts', 'api', 'desktop', ...engine]),
  // runtime-host.ts is the Electron utility process's host: it starts the dispatcher as the browser host does.
  may('electron', ['electron', 'hosts', 'api', 'runtime', 'shared']),
  {
    from: { element: { types: { anyOf: ['cli', 'hosts', 'electron', 'mcp'] } } },
    allow: { to: { element: { type: 'backends' }, file: { categories: 'flags' } } },
  },
  // Only the entry points link concrete backends in.
  { from: { file: { categories: 'entry' } }, allow: { to: { element: { type: 'backends' } } } },
  // Tests and tooling may reach anything they test; renderer tests start the real dispatcher on the mock provider.
  { from: { file: { categories: 'test' } }, allow: { to: { element: { type: '*' } } } },
  { from: { element: { type: 'tooling' } }, allow: { to: { element: { type: '*' } } } },
];

export default tseslint.config(
  { ignores: ['dist/**', 'release/**', 'node_modules/**', '.artifacts/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['**/*.ts', '**/*.tsx', '**/*.cts'],
    plugins: { boundaries },
    settings: {
      'boundaries/elements': elements,
      'boundaries/files': files,
      'boundaries/include': ['shared/**', 'renderer/**', 'preload/**', 'native/**', 'main/**', 'bench/**', 'e2e/**'],
      'import/resolver': {
        typescript: { project: ['tsconfig.json', 'renderer/tsconfig.json'], noWarnOnMultipleProjects: true },
      },
    },
    rules: {
      'boundaries/dependencies': ['error', { default: 'disallow', policies }],
      'boundaries/no-unknown-files': 'error',
      'boundaries/no-unknown-dependencies': 'error',
    },
  },
  {
    // shared/ is plain code: no Node module, no Electron; the layers above decide what else it may import.
    files: ['shared/**/*.ts'],
    ignores: ['shared/**/test/**'],
    rules: restrict([...nodeModules, 'electron'], 'shared/ may only import shared/ and environment-free libraries'),
  },
  {
    files: ['renderer/**/*.ts', 'renderer/**/*.tsx'],
    ignores: ['renderer/test/**'],
    rules: restrict([...nodeModules, 'electron'], 'renderer/ may only use shared/ and browser APIs'),
  },
  {
    // Only the thin Electron shell may import electron.
    files: ['main/**/*.ts', 'native/**/*.ts'],
    ignores: ['main/electron/**'],
    rules: restrict(['electron'], 'only main/electron may import electron'),
  },
);
