import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** The native and D-Bus packages a fresh process has loaded after importing these modules (dist paths). */
function packagesLoadedBy(modules: readonly string[]): string[] {
  const script = `
    import { createRequire } from 'node:module';
    for (const m of ${JSON.stringify(modules.map((m) => path.join(dist, m)))}) await import(m);
    const cache = createRequire(import.meta.url)('module')._cache;
    const found = new Set();
    for (const file of Object.keys(cache)) {
      const match = /node_modules[\\\\/](dbus-next|@koromix[\\\\/]koffi|koffi)[-\\\\/]/.exec(file);
      if (match) found.add(match[1].endsWith('koffi') ? 'koffi' : match[1]);
    }
    process.stdout.write(JSON.stringify([...found].sort()));`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  return JSON.parse(out) as string[];
}

test('importing the runtime and linking every backend loads neither dbus-next nor koffi', () => {
  assert.deepEqual(packagesLoadedBy(['main/runtime/runtime.js', 'main/backends/linux.js']), []);
});

test('the check sees the packages once a backend itself is loaded; the AT-SPI provider needs no D-Bus library', () => {
  assert.deepEqual(packagesLoadedBy(['main/providers/atspi/provider.js', 'main/platform/x11/factory.js']), ['koffi']);
});

test('linking registers the backends without creating them', async () => {
  await import('../linux.js');
  const { listPlatformFactories, listProviderFactories } = await import('../../core/registry.js');
  assert.deepEqual(
    listProviderFactories()
      .map((f) => f.descriptor.id)
      .sort(),
    ['atspi', 'mock'],
  );
  assert.deepEqual(
    listPlatformFactories()
      .map((f) => f.id)
      .sort(),
    ['mock', 'x11'],
  );
});
