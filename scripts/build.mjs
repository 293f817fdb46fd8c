// One build for everything that runs: TypeScript for main/shared/native/preload, esbuild bundles for the renderer, the
// MCP server's SDK, the CLI and the XPath worker.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import * as esbuild from 'esbuild';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const tsc = spawnSync(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', root], {
  stdio: 'inherit',
});
if (tsc.status !== 0) process.exit(tsc.status ?? 1);
// shared/ type-checked once more without Node's types (shared/tsconfig.json): it must run in the browser too.
const sharedCheck = spawnSync(
  process.execPath,
  [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', path.join(root, 'shared')],
  { stdio: 'inherit' },
);
if (sharedCheck.status !== 0) process.exit(sharedCheck.status ?? 1);

// The MCP server's SDK and zod as one file over tsc's re-export (main/mcp/sdk.ts says why).
const mcpSdk = path.join(root, 'dist/main/mcp/sdk.js');
await esbuild.build({
  entryPoints: [path.join(root, 'main/mcp/sdk.ts')],
  outfile: mcpSdk,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  legalComments: 'linked',
  logLevel: 'warning',
});

/**
 * Every bundled module keeps its own import.meta.url (its file under dist/main), so what it finds from there
 * (package.json, the renderer, the XPath worker, createRequire) is unchanged. `outDir`: where the bundle's files
 * are written (all of them directly in it).
 */
const ownLocation = (outDir) => ({
  name: 'own-location',
  setup(build) {
    build.onLoad({ filter: /\.js$/ }, async (args) => {
      const text = await readFile(args.path, 'utf8');
      if (!text.includes('import.meta.url')) return undefined;
      const original = JSON.stringify(path.relative(outDir, args.path).split(path.sep).join('/'));
      return {
        contents: text.replaceAll('import.meta.url', `new URL(${original}, import.meta.url).href`),
        loader: 'js',
        resolveDir: path.dirname(args.path),
      };
    });
  },
});
const bundleOptions = {
  bundle: true,
  packages: 'external',
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
};

// The CLI as a few chunks instead of about a hundred and fifty modules: a command starts 50-60 ms sooner. Code
// splitting keeps each command's own modules in its own chunks; packages stay outside (resolved from node_modules).
const cliOut = path.join(root, 'dist/cli');
await esbuild.build({
  ...bundleOptions,
  entryPoints: [path.join(root, 'dist/main/cli/index.js')],
  outdir: cliOut,
  splitting: true,
  plugins: [ownLocation(cliOut)],
});
// The XPath worker as one file in its own place (every host starts it from there): it is ready about 20 ms sooner.
const xpathWorker = path.join(root, 'dist/main/xpath/worker/xpath-worker.js');
await esbuild.build({
  ...bundleOptions,
  entryPoints: [xpathWorker],
  outfile: xpathWorker,
  allowOverwrite: true,
  plugins: [ownLocation(path.dirname(xpathWorker))],
});

const rendererBuild = path.join(root, 'scripts/build-renderer.mjs');
if (existsSync(rendererBuild)) {
  const renderer = spawnSync(process.execPath, [rendererBuild], { stdio: 'inherit' });
  if (renderer.status !== 0) process.exit(renderer.status ?? 1);
}
