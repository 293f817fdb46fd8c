// Which inspector the end-to-end suite drives: the Electron shell only when ELECTRON_OVERRIDE_DIST_PATH holds an
// Electron executable, the browser host otherwise (also when the variable names a directory without one).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { electronBinary, inspectorKind } from '../support/inspector.js';

test('the suite runs against the Electron shell only when ELECTRON_OVERRIDE_DIST_PATH holds electron', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'platynui-electron-'));
  try {
    assert.equal(inspectorKind({}), 'browser host');
    assert.equal(electronBinary({ ELECTRON_OVERRIDE_DIST_PATH: dir }), undefined);
    assert.equal(inspectorKind({ ELECTRON_OVERRIDE_DIST_PATH: dir }), 'browser host');
    writeFileSync(path.join(dir, 'electron'), '', { mode: 0o755 });
    assert.equal(electronBinary({ ELECTRON_OVERRIDE_DIST_PATH: dir }), path.join(dir, 'electron'));
    assert.equal(inspectorKind({ ELECTRON_OVERRIDE_DIST_PATH: dir }), 'Electron shell');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
