// One build for everything that runs: TypeScript for main/shared/native/preload, esbuild bundles for the renderer and
// for the MCP server's SDK.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
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

const rendererBuild = path.join(root, 'scripts/build-renderer.mjs');
if (existsSync(rendererBuild)) {
  const renderer = spawnSync(process.execPath, [rendererBuild], { stdio: 'inherit' });
  if (renderer.status !== 0) process.exit(renderer.status ?? 1);
}
