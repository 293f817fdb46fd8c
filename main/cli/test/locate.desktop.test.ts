import '../../backends/linux.js';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { renderExport } from '../../../shared/export/templates.js';
import { xpathString } from '../../../shared/locators/quote.js';
import type { LaunchedApp } from '../../../e2e/support/apps.js';
import { launchGtk3Demo, sessionEnv } from '../../../e2e/support/apps.js';
import type { RuntimeNode } from '../../runtime/node.js';
import { Runtime } from '../../runtime/runtime.js';
import { XPathService } from '../../xpath/xpath-service.js';
import { locateNodes } from '../../services/locate.js';

// The generated dogtail script runs under Debian's python3-dogtail against a real gtk3-demo in the test desktop.

let gtk: LaunchedApp;
let runtime: Runtime;
let xpath: XPathService;
let dir: string;

before(async () => {
  gtk = await launchGtk3Demo(sessionEnv());
  runtime = await Runtime.create({ providers: ['atspi'] });
  xpath = new XPathService(runtime);
  dir = mkdtempSync(path.join(tmpdir(), 'locate-dogtail-'));
});

after(async () => {
  await xpath?.close();
  await runtime?.shutdown();
  await gtk?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function nodes(expression: string): Promise<RuntimeNode[]> {
  const { items } = await xpath.evaluate(expression);
  return items.flatMap((item) => (item.type === 'node' ? [item.node] : []));
}

async function nativeRole(node: RuntimeNode): Promise<string> {
  const entry = await node.attribute('native', 'Role');
  assert.ok(entry && entry.value.type === 'String');
  return entry.value.value as string;
}

test('the dogtail script generated for gtk3-demo nodes finds them and prints their role and name', async () => {
  const app = `app:Application[@Name=${JSON.stringify(gtk.name)}]`;
  const window = (await nodes(`${app}/*`))[0];
  assert.ok(window, 'gtk3-demo has a window');
  const buttons = (await nodes(`${app}//Button`)).filter((b) => b.name !== '');
  const cells = (await nodes(`${app}//*[@Name != '']`)).filter((n) => n !== window && n.role !== 'Button');
  const targets = [window, ...buttons.slice(0, 2), ...cells.slice(0, 2)];
  assert.ok(targets.length >= 3, `targets: ${targets.map((t) => t.describe()).join(', ')}`);

  const located = await locateNodes(runtime, xpath, targets);
  for (const [i, target] of located.entries()) {
    assert.ok(target.locators.length > 0, `no locator for ${targets[i]!.describe()}`);
    assert.ok(target.dogtail, 'dogtail path');
    assert.equal(target.dogtail.application, gtk.name);
    // Every locator was verified through the XPath service; check the best once more.
    const again = await nodes(target.locators[0]!.xpath);
    assert.deepEqual(
      again.map((n) => n.runtimeId),
      [target.runtimeId],
    );
  }

  const script = renderExport('dogtail', located, { kind: 'none' });
  const file = path.join(dir, 'find.py');
  writeFileSync(file, script);
  const compiled = spawnSync('/usr/bin/python3', ['-m', 'py_compile', file], { encoding: 'utf8' });
  assert.equal(compiled.status, 0, compiled.stderr);
  const run = spawnSync('/usr/bin/python3', [file], { encoding: 'utf8', env: sessionEnv(), timeout: 120_000 });
  assert.equal(run.status, 0, `${run.stderr}\n${script}`);
  const printed = run.stdout.trim().split('\n');
  const expected = await Promise.all(targets.map(async (t) => `${await nativeRole(t)}\t${t.name}`));
  assert.deepEqual(printed, expected, script);
});

test("gtk3-demo's title follows the selected demo: the best locators survive it, an exact-title one does not", async () => {
  const app = `app:Application[@Name=${JSON.stringify(gtk.name)}]`;
  const [frame] = await nodes(`${app}/*`);
  assert.ok(frame, 'gtk3-demo has a window');
  const title = frame.name;
  const targets = [
    frame,
    ...(await nodes(`${app}//Button[@Name='Run']`)),
    ...(await nodes(`${app}//item:TabItem[@Name='Source']`)),
    ...(await nodes(`${app}//item:TableCell[@Name='Assistant']`)),
  ];
  assert.equal(targets.length, 4, targets.map((t) => t.describe()).join(', '));
  const located = await locateNodes(runtime, xpath, targets);
  const best = located.map((target) => target.locators[0]!.xpath);
  // The window is the application's only one: it is located through the application, not its (changing) title.
  assert.equal(best[0], `//app:Application[@Name=${xpathString(gtk.name)}]/${frame.role}`);

  // Selecting another demo in the tree sets the window title to that demo's name.
  const [row] = await nodes(`${app}//item:TableCell[item:TableCell[@Name='Assistant']]`);
  assert.ok(row, 'the Assistant row');
  await row.performAction({ action: 'select' });
  const deadline = Date.now() + 10_000;
  let now = title;
  while (now === title && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    now = (await nodes(`${app}/*`))[0]?.name ?? title;
  }
  assert.notEqual(now, title, 'the title changed');
  assert.deepEqual(await nodes(`//${frame.role}[@Name=${xpathString(title)}]`), []);
  for (const [i, xpathText] of best.entries()) {
    assert.deepEqual(
      (await nodes(xpathText)).map((n) => n.runtimeId),
      [located[i]!.runtimeId],
      `${xpathText} after the title became "${now}"`,
    );
  }
});
