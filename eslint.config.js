import tseslint from 'typescript-eslint';

const restrict = (patterns, message) => ({
  'no-restricted-imports': ['error', { patterns: [{ group: patterns, message }] }],
});

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
    // shared/ is plain code: no Node, no DOM-only modules, no other layer.
    files: ['shared/**/*.ts'],
    ignores: ['shared/**/test/**'],
    rules: restrict(
      [
        'node:*',
        'fs',
        'path',
        'child_process',
        '**/main/**',
        '**/renderer/**',
        '**/native/**',
        '**/preload/**',
        'electron',
      ],
      'shared/ may only import shared/ and environment-free libraries',
    ),
  },
  {
    // Tests of shared/ code run under node:test.
    files: ['shared/**/test/**/*.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: ['renderer/**/*.ts', 'renderer/**/*.tsx'],
    ignores: ['renderer/test/**'],
    rules: restrict(
      ['node:*', '**/main/**', '**/native/**', 'electron'],
      'renderer/ may only use shared/ and browser APIs',
    ),
  },
  {
    // Only the thin Electron shell may import electron.
    files: ['main/**/*.ts', 'native/**/*.ts'],
    ignores: ['main/electron/**'],
    rules: restrict(
      ['electron', '**/renderer/**'],
      'only main/electron may import electron; nothing imports renderer/',
    ),
  },
);
