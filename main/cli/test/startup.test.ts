import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
// The bundle bin/platynui-inspector runs (scripts/build.mjs): its chunks load as the commands need them.
const cliModule = path.join(root, 'dist/cli/index.js');

/**
 * Runs the CLI in a child process and returns the packages (node_modules folders) it loaded on its own thread:
 * each command should load only what it needs.
 */
function packagesLoadedBy(args: readonly string[]): Set<string> {
  return runProbe(args).packages;
}

/**
 * Runs the CLI as packagesLoadedBy does: the files it loaded on its own thread (CommonJS from the require cache, ES
 * modules as the module loader's hook saw them), their packages, and what it printed.
 */
function runProbe(args: readonly string[]): { files: string[]; packages: Set<string>; stdout: string } {
  // A file, not --input-type with -e: the XPath worker inherits the process's exec arguments.
  const dir = mkdtempSync(path.join(tmpdir(), 'platynui-startup-'));
  const hooks = path.join(dir, 'hooks.mjs');
  writeFileSync(
    hooks,
    `export async function load(url, context, next) {
      if (url.startsWith('file:')) process.stderr.write('loaded ' + url + '\\n');
      return next(url, context);
    }`,
  );
  const probe = `
    import { createRequire, register } from 'node:module';
    register(${JSON.stringify(pathToFileURL(hooks).href)});
    const { runCli } = await import(${JSON.stringify(cliModule)});
    const code = await runCli(${JSON.stringify(args)});
    const loaded = Object.keys(createRequire(import.meta.url).cache);
    process.stderr.write('\\n' + JSON.stringify({ code, loaded }) + '\\n');`;
  const file = path.join(dir, 'probe.mjs');
  writeFileSync(file, probe);
  const result = spawnSync(process.execPath, [file], { encoding: 'utf8', timeout: 60_000 });
  rmSync(dir, { recursive: true, force: true });
  const lines = result.stderr.trim().split('\n');
  const report = JSON.parse(lines.pop() ?? '') as { code: number; loaded: string[] };
  assert.equal(report.code, 0, result.stderr);
  const modules = lines.filter((line) => line.startsWith('loaded ')).map((line) => fileURLToPath(line.slice(7)));
  const files = [...new Set([...report.loaded, ...modules])];
  const packages = files
    .filter((file) => file.includes(`${path.sep}node_modules${path.sep}`))
    .map((file) => file.split(`${path.sep}node_modules${path.sep}`).pop()!.split(path.sep)[0]!);
  return { files, packages: new Set(packages), stdout: result.stdout };
}

test('list-providers and a mock query load neither the other commands, the XPath engine nor D-Bus or X11 on the CLI thread', () => {
  for (const args of [['list-providers'], ['query', 'count(/*)', '--provider', 'mock']]) {
    const loaded = packagesLoadedBy(args);
    assert.ok(loaded.has('commander'), [...loaded].join(', '));
    // The browser host (ws, zod), the snapshot writer (xmlbuilder2), screenshots (pngjs), fontoxpath, and the
    // backends these runs do not create (AT-SPI's dbus-next, X11's koffi).
    for (const heavy of ['ws', 'zod', 'xmlbuilder2', 'pngjs', 'fontoxpath', 'dbus-next', 'koffi', '@koromix']) {
      assert.ok(!loaded.has(heavy), `${args.join(' ')} loaded ${heavy}`);
    }
  }
});

test('check loads the config parser (zod) only for a run with --config', () => {
  const zod = (files: string[]) => files.filter((file) => file.includes('/node_modules/zod/'));
  const run = ['check', '--provider', 'mock', '--format', 'json', '--fail-on', 'never'];
  const without = runProbe(run).files;
  assert.ok(
    without.some((file) => /\/dist\/cli\/check-[^/]*\.js$/.test(file)),
    'the probe sees the modules',
  );
  assert.deepEqual(zod(without), []);
  const dir = mkdtempSync(path.join(tmpdir(), 'platynui-check-config-'));
  try {
    const config = path.join(dir, 'a11y.json');
    writeFileSync(config, '{"rules": {"poor-name": "off"}}');
    assert.notDeepEqual(zod(runProbe([...run, '--config', config]).files), []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a query over a mock file in the snapshot format does not load saxes; one outside that format does, same answer', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'platynui-startup-'));
  try {
    const body = '<snapshot xmlns="urn:platynui:control"><Window Name="W"><Button Name="OK"/></Window></snapshot>';
    const plain = path.join(dir, 'plain.xml');
    const doctype = path.join(dir, 'doctype.xml');
    writeFileSync(plain, `<?xml version="1.0" encoding="UTF-8"?>\n${body}\n`);
    // A DOCTYPE is outside what the snapshot reader reads: saxes reads the file.
    writeFileSync(doctype, `<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE snapshot>\n${body}\n`);
    const query = (file: string) => runProbe(['query', '//Button/@Name', '--provider', 'mock', '--mock-file', file]);
    const fast = query(plain);
    const general = query(doctype);
    assert.equal(fast.stdout, 'Button "OK" @Name=OK\n');
    assert.equal(general.stdout, fast.stdout);
    assert.ok(!fast.packages.has('saxes'), [...fast.packages].join(', '));
    assert.ok(general.packages.has('saxes'), [...general.packages].join(', '));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
