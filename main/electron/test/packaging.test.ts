import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

/** The items of a top-level or nested YAML list under `key:` (the simple block style electron-builder.yml uses). */
function listUnder(text: string, key: string): string[] {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => line.trim() === `${key.trim()}:`);
  if (start < 0) return [];
  const indent = lines[start]!.search(/\S/);
  const items: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (line.trim() === '') continue;
    if (line.search(/\S/) <= indent && !line.trim().startsWith('-')) break;
    const match = /^\s*-\s+(.*)$/.exec(line);
    if (!match) break;
    items.push(match[1]!.replace(/^'(.*)'$/, '$1'));
  }
  return items;
}

test('electron-builder builds AppImage and deb, NSIS, dmg, with koffi unpacked from asar', () => {
  const config = readFileSync(path.join(root, 'electron-builder.yml'), 'utf8');
  const section = (name: string) => config.slice(config.indexOf(`\n${name}:`));
  assert.deepEqual(listUnder(section('linux'), '  target'), ['AppImage', 'deb']);
  assert.deepEqual(listUnder(section('win'), '  target'), ['nsis']);
  assert.deepEqual(listUnder(section('mac'), '  target'), ['dmg']);
  assert.ok(listUnder(config, 'asarUnpack').includes('node_modules/koffi/**'));
  assert.match(config, /^asar: true$/m);
  assert.match(config, /main: dist\/main\/electron\/main\.js/);
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    main: string;
    scripts: { [name: string]: string };
  };
  assert.equal(pkg.main, 'dist/main/electron/main.js');
  assert.match(pkg.scripts.dist!, /electron-builder.*--config electron-builder\.yml/);
  for (const resource of ['build/icon.png', 'build/entitlements.mac.plist']) {
    assert.ok(existsSync(path.join(root, resource)), resource);
  }
  const png = readFileSync(path.join(root, 'build/icon.png'));
  assert.equal(png.readUInt32BE(16), 512, 'icon width');
  assert.equal(png.readUInt32BE(20), 512, 'icon height');
  assert.ok(existsSync(path.join(root, 'dist/main/electron/main.js')), 'the shell entry is built');
  assert.ok(existsSync(path.join(root, 'dist/main/electron/runtime-host-main.js')), 'the runtime host entry is built');
});
