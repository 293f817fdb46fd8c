// Builds the inspector UI: type-checks renderer/ (its own tsconfig: JSX, DOM), then bundles it with esbuild into
// dist/renderer/ (index.html, app.js, app.css, Monaco's editor worker and fonts; nothing from a CDN, no inline
// script), and compiles the renderer's tests to dist/renderer/test/*.test.js for the unit-test runner.
//
//   node scripts/build-renderer.mjs            type-check + bundle + tests
//   node scripts/build-renderer.mjs --no-check  skip tsc (faster while iterating)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const src = path.join(root, 'renderer');
const out = path.join(root, 'dist', 'renderer');
const check = !process.argv.includes('--no-check');
const started = performance.now();

if (check) {
  for (const project of ['renderer/tsconfig.json', 'renderer/tsconfig.test.json']) {
    const tsc = spawnSync(
      process.execPath,
      [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', path.join(root, project), '--noEmit'],
      { stdio: 'inherit' },
    );
    if (tsc.status !== 0) process.exit(tsc.status ?? 1);
  }
}

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

const production = process.env.NODE_ENV !== 'development';
const common = {
  bundle: true,
  minify: production,
  sourcemap: true,
  target: ['chrome120'],
  logLevel: 'warning',
  legalComments: 'linked',
  define: { 'process.env.NODE_ENV': JSON.stringify(production ? 'production' : 'development') },
};

const [page] = await Promise.all([
  esbuild.build({
    ...common,
    entryPoints: { app: path.join(src, 'main.tsx') },
    metafile: true,
    outdir: out,
    format: 'esm',
    // The XPath console (Monaco) is imported dynamically: its own chunk, loaded after the tree is on screen.
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    jsx: 'automatic',
    loader: { '.ttf': 'file', '.woff': 'file', '.woff2': 'file', '.svg': 'file' },
    assetNames: 'assets/[name]-[hash]',
  }),
  esbuild.build({
    ...common,
    entryPoints: { 'editor.worker': 'monaco-editor/editor/editor.worker.start.js' },
    outdir: out,
    format: 'iife',
  }),
]);
writeFileSync(path.join(out, 'index.html'), withModulePreloads(readFileSync(path.join(src, 'index.html'), 'utf8')));

/**
 * index.html with a modulepreload link for each module the page runs before its first rows: app.js's static imports
 * and the React part (app-view.tsx, imported dynamically), with theirs. The browser fetches them beside app.js instead
 * of one after another as it finds them.
 */
function withModulePreloads(html) {
  const outputs = page.metafile.outputs;
  const relative = (file) => path.relative(out, path.resolve(root, file)).split(path.sep).join('/');
  const appView = Object.keys(outputs).find((file) => outputs[file].entryPoint === 'renderer/app-view.tsx');
  const entry = Object.keys(outputs).find((file) => relative(file) === 'app.js');
  if (!appView || !entry) throw new Error('the page bundle has no app.js or no app-view chunk to preload');
  const preload = new Set([appView]);
  const visit = (file) => {
    for (const imported of outputs[file].imports) {
      if (imported.kind !== 'import-statement' || preload.has(imported.path)) continue;
      preload.add(imported.path);
      visit(imported.path);
    }
  };
  visit(entry);
  visit(appView);
  const links = [...preload].map((file) => `<link rel="modulepreload" href="${relative(file)}" />`);
  const script = '<script type="module" src="app.js"></script>';
  if (!html.includes(script)) throw new Error(`renderer/index.html has no ${script}`);
  return html.replace(script, [...links, script].join('\n    '));
}

// Store tests: plain node:test files, bundled per file with the packages left to node_modules.
const testDir = path.join(src, 'test');
const tests = existsSync(testDir) ? readdirSync(testDir).filter((f) => /\.test\.tsx?$/.test(f)) : [];
// Renderer tests run against the real dispatcher (main/), which they load from its compiled form in dist/main (its
// XPath worker is found beside it there); only renderer/ and shared/ are bundled into the test files.
const testOut = path.join(out, 'test');
const mainFromDist = {
  name: 'main-from-dist',
  setup(build) {
    build.onResolve({ filter: /(^|\/)main\// }, (args) => {
      const resolved = path.resolve(args.resolveDir, args.path);
      if (!resolved.startsWith(path.join(root, 'main') + path.sep)) return undefined;
      const compiled = path.join(root, 'dist', path.relative(root, resolved));
      return { path: `./${path.relative(testOut, compiled).split(path.sep).join('/')}`, external: true };
    });
  },
};
if (tests.length) {
  await esbuild.build({
    plugins: [mainFromDist],
    entryPoints: tests.map((f) => path.join(testDir, f)),
    outdir: testOut,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: true,
    logLevel: 'warning',
    jsx: 'automatic',
  });
}
process.stdout.write(`renderer built in ${Math.round(performance.now() - started)} ms\n`);
