import '../../backends/mock.js';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { DEFAULT_MOCK_TREE } from '../../providers/mock/default-tree.js';
import { Runtime } from '../../runtime/runtime.js';
import { XPathService } from '../../xpath/xpath-service.js';
import { captureLocatorTree, locateNodes } from '../../services/locate.js';

test('one locator capture per tree generation serves every locate; a change makes the next capture anew', async () => {
  const runtime = await Runtime.create({ providers: ['mock'], platform: 'mock' });
  const xpath = new XPathService(runtime);
  try {
    let visits = 0;
    const structural = runtime.structuralChildren.bind(runtime);
    const peek = runtime.peekStructuralChildren.bind(runtime);
    runtime.structuralChildren = (node) => (visits++, structural(node));
    runtime.peekStructuralChildren = (node) => (visits++, peek(node));
    const { items } = await xpath.evaluate("//Button[@Name='OK']");
    const targets = items.flatMap((item) => (item.type === 'node' ? [item.node] : []));
    assert.equal(targets.length, 3);

    const first = await captureLocatorTree(runtime, [targets[0]!]);
    const firstVisits = visits;
    assert.ok(firstVisits > 10, `the first capture walks the tree (${firstVisits} visits)`);
    const [located] = await locateNodes(runtime, xpath, [targets[1]!]);
    assert.ok(located && located.locators.length > 0);
    const again = await captureLocatorTree(runtime, [targets[2]!]);
    assert.equal(visits, firstVisits, 'later captures of the same generation walk nothing');
    assert.equal(again.nodes.length, first.nodes.length);
    // Each capture still carries its own targets' values (what a locator may use, not their geometry).
    const target = again.nodes.find((node) => node.key === targets[2]!.runtimeId);
    assert.equal(target?.attributes.get('Name'), 'OK');
    assert.ok(!target?.attributes.has('Bounds'), 'geometry, which no locator uses, is not read');

    runtime.invalidateAll();
    await captureLocatorTree(runtime, [targets[0]!]);
    assert.ok(visits > firstVisits, 'a new generation is captured anew');
  } finally {
    await xpath.close();
    await runtime.shutdown();
  }
});

test("a node's verified locators are made once per tree generation: locate and every export share them", async () => {
  const runtime = await Runtime.create({ providers: ['mock'], platform: 'mock' });
  const xpath = new XPathService(runtime);
  try {
    const { items } = await xpath.evaluate("//Button[@Name='Save']");
    const target = items[0]?.type === 'node' ? items[0].node : undefined;
    assert.ok(target);
    let evaluations = 0;
    const evaluate = xpath.evaluate.bind(xpath);
    xpath.evaluate = (expression, options) => (evaluations++, evaluate(expression, options));

    const [first] = await locateNodes(runtime, xpath, [target]);
    const verifications = evaluations;
    assert.ok(verifications > 0 && first!.locators.length > 0, 'the first locate verifies candidates');
    const [again] = await locateNodes(runtime, xpath, [target]);
    assert.equal(evaluations, verifications, 'the same generation verifies nothing again');
    assert.deepEqual(again, first);

    runtime.invalidateAll();
    await locateNodes(runtime, xpath, [target]);
    assert.ok(evaluations > verifications, 'a new generation verifies anew');
  } finally {
    await xpath.close();
    await runtime.shutdown();
  }
});

test('the targets and their ancestors carry every attribute a locator may use, the other nodes the priority ones', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'locate-capture-'));
  const file = path.join(dir, 'tree.xml');
  // A value no priority list names (nor the blacklist), on the target, its window and a button like it.
  writeFileSync(
    file,
    DEFAULT_MOCK_TREE.replace('<Window Name="Sign in"', '<Window Name="Sign in" HelpText="Signs in"')
      .replace(
        '<Button Name="OK" RuntimeId="mock:button-login-ok"',
        '<Button Name="OK" HelpText="Signs in" RuntimeId="mock:button-login-ok"',
      )
      .replace(
        '<Button Name="OK" RuntimeId="mock:button-preferences-ok"',
        '<Button Name="OK" HelpText="Signs in" RuntimeId="mock:button-preferences-ok"',
      ),
  );
  const runtime = await Runtime.create({ providers: ['mock'], platform: 'mock', backendOptions: { mock: { file } } });
  const xpath = new XPathService(runtime);
  try {
    const { items } = await xpath.evaluate("//Button[@Name='OK']");
    const login = items.flatMap((item) =>
      item.type === 'node' && item.node.runtimeId === 'mock:button-login-ok' ? [item.node] : [],
    )[0];
    assert.ok(login);
    const tree = await captureLocatorTree(runtime, [login]);
    const node = (key: string) => tree.nodes.find((candidate) => candidate.key === key);
    assert.equal(node('mock:button-login-ok')?.attributes.get('HelpText'), 'Signs in');
    assert.equal(node('mock:window-login')?.attributes.get('HelpText'), 'Signs in', 'an ancestor');
    assert.equal(node('mock:button-preferences-ok')?.attributes.has('HelpText'), false);
    assert.equal(node('mock:button-preferences-ok')?.attributes.get('Name'), 'OK');
    assert.ok(!node('mock:button-login-ok')?.attributes.has('IsEnabled'), 'states are not read');
  } finally {
    await xpath.close();
    await runtime.shutdown();
    rmSync(dir, { recursive: true, force: true });
  }
});
