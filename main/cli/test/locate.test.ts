import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const bin = path.join(root, 'bin/platynui-inspector');

function cli(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 60_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

test('locate prints verified locators for every selected node, best first', () => {
  const result = cli('locate', "//Button[@Name='OK']", '--provider', 'mock');
  assert.equal(result.status, 0, result.stderr);
  const out = JSON.parse(result.stdout) as Array<{
    runtimeId: string;
    role: string;
    name: string;
    locators: Array<{ xpath: string; strategy: string; reason: string; score: number; matches: number }>;
  }>;
  assert.deepEqual(
    out.map((n) => n.runtimeId),
    ['mock:button-toolbar-ok', 'mock:button-preferences-ok', 'mock:button-login-ok'],
  );
  for (const node of out) {
    assert.equal(node.role, 'Button');
    assert.equal(node.name, 'OK');
    assert.ok(node.locators.length >= 2);
    for (const locator of node.locators) {
      assert.equal(locator.matches, 1);
      const check = cli('query', locator.xpath, '--provider', 'mock', '--format', 'json', '--attrs', 'none');
      assert.equal(check.status, 0, check.stderr);
      assert.deepEqual(
        (JSON.parse(check.stdout) as Array<{ runtimeId: string }>).map((n) => n.runtimeId),
        [node.runtimeId],
        locator.xpath,
      );
    }
  }
  assert.equal(out[0]!.locators[0]!.xpath, "//Button[@Id='toolbar-ok']");
});

test('locate exports code and rejects bad options', () => {
  const xpath = cli('locate', "//Window[@Name='Preferences']//Button", '--provider', 'mock', '--format', 'xpath');
  assert.equal(xpath.status, 0, xpath.stderr);
  assert.equal(xpath.stdout.trim().split('\n').length, 2);
  const robot = cli('locate', '//Edit', '--provider', 'mock', '--format', 'robot', '--action', 'type:hi');
  assert.equal(robot.status, 0, robot.stderr);
  assert.match(robot.stdout, /Keyboard Type {4}\$\{LOCATOR_1\} {4}hi/);
  assert.equal(cli('locate', '//Edit', '--provider', 'mock', '--format', 'yaml').status, 2);
  assert.equal(cli('locate', '//Edit', '--provider', 'mock', '--action', 'dance').status, 2);
  assert.equal(cli('locate', 'count(//Edit)', '--provider', 'mock').status, 2);
});
