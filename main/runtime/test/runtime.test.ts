import '../../backends/mock.js';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkPatternContract } from '../../../shared/model/patterns.js';
import { toJsonValue } from '../../../shared/model/values.js';
import { DEFAULT_MOCK_SECRET } from '../../providers/mock/default-tree.js';
import { MockDevices } from '../../platform/mock/mock-platform.js';
import type { RuntimeNode } from '../node.js';
import { selectProviderFactories } from '../../core/registry.js';
import { Runtime } from '../runtime.js';

async function mockRuntime(): Promise<Runtime> {
  return Runtime.create({ providers: ['mock'], platform: 'mock' });
}

async function walk(node: RuntimeNode, visit: (node: RuntimeNode) => Promise<void>, runtime: Runtime): Promise<void> {
  await visit(node);
  for (const child of await runtime.structuralChildren(node)) await walk(child, visit, runtime);
}

test('the mock is opt-in: default provider selection never picks it', () => {
  for (const platform of ['linux', 'win32', 'darwin'] as const) {
    assert.ok(!selectProviderFactories([], platform).some((f) => f.descriptor.id === 'mock'));
  }
  assert.equal(selectProviderFactories(['mock'], 'linux')[0]!.descriptor.id, 'mock');
  assert.throws(() => selectProviderFactories(['nope'], 'linux'), /unknown provider "nope"/);
});

test('the desktop lists applications, then every top-level window once', async () => {
  const runtime = await mockRuntime();
  try {
    assert.equal(runtime.desktop.runtimeId, 'platynui:Desktop');
    const children = await runtime.desktop.children();
    assert.deepEqual(
      children.map((c) => c.describe()),
      [
        'app:Application "Studio"',
        'app:Application "Login"',
        'Window "Studio - demo"',
        'Window "Preferences"',
        'Window "Sign in"',
      ],
    );
    const [studio] = children;
    const grouped = await studio!.children();
    assert.equal(grouped[0], children[2], 'the grouped view holds the very same window node');
    assert.equal(grouped[0]!.parent, runtime.desktop);
    const structural = await runtime.structuralChildren(runtime.desktop);
    assert.deepEqual(
      structural.map((c) => c.namespace),
      ['app', 'app'],
    );
  } finally {
    await runtime.shutdown();
  }
});

test('the desktop describes the three reference monitors', async () => {
  const runtime = await mockRuntime();
  try {
    const attributes = await runtime.desktop.attributes();
    const monitors = attributes.find((a) => a.name === 'Monitors');
    const json = toJsonValue(monitors!.value) as Array<{
      Bounds: { width: number; height: number };
      IsPrimary: boolean;
    }>;
    assert.deepEqual(
      json.map((m) => [m.Bounds.width, m.Bounds.height, m.IsPrimary]),
      [
        [2160, 3840, false],
        [3840, 2160, true],
        [1920, 1080, false],
      ],
    );
    const bounds = attributes.find((a) => a.name === 'Bounds');
    assert.deepEqual(toJsonValue(bounds!.value), { x: -2160, y: 0, width: 7920, height: 3840 });
  } finally {
    await runtime.shutdown();
  }
});

test('without a platform the runtime uses the fallback desktop', async () => {
  const runtime = await Runtime.create({ providers: ['mock'], platform: 'none' });
  try {
    const attributes = await runtime.desktop.attributes();
    assert.deepEqual(toJsonValue(attributes.find((a) => a.name === 'Bounds')!.value), {
      x: 0,
      y: 0,
      width: 1920,
      height: 1080,
    });
    assert.deepEqual(toJsonValue(attributes.find((a) => a.name === 'Technology')!.value), 'Fallback');
    const [application] = await runtime.desktop.children();
    const [window] = await application!.children();
    const [pane] = await window!.children();
    for (const node of [application!, window!, pane!]) {
      assert.equal(node.technology, 'Mock', `${node.describe()} carries the provider's technology, not the desktop's`);
      assert.deepEqual(toJsonValue((await node.attribute('control', 'Technology'))!.value), 'Mock');
    }
  } finally {
    await runtime.shutdown();
  }
});

test('every mock node keeps its pattern contract, except the scripted broken one', async () => {
  const runtime = await mockRuntime();
  try {
    const violations: string[] = [];
    await walk(
      runtime.desktop,
      async (node) => {
        const attributes = await node.attributes();
        const control = new Map<string, unknown>();
        for (const a of attributes) if (a.namespace === 'control') control.set(a.name, toJsonValue(a.value));
        for (const v of checkPatternContract(await node.supportedPatterns(), control))
          violations.push(`${node.runtimeId}: ${v.message}`);
        assert.ok(
          attributes.some((a) => a.name === 'RuntimeId'),
          `${node.runtimeId} has RuntimeId`,
        );
        const id = attributes.find((a) => a.name === 'Id');
        if (id) assert.notEqual(toJsonValue(id.value), '', 'Id is emitted only when non-empty');
      },
      runtime,
    );
    assert.deepEqual(violations, [
      'mock:slider-broken: pattern StatefulValue requires attribute Value, which the node does not have',
    ]);
  } finally {
    await runtime.shutdown();
  }
});

test('secret values never leave the runtime', async () => {
  const runtime = await mockRuntime();
  try {
    const seen: string[] = [];
    await walk(runtime.desktop, async (node) => void seen.push(JSON.stringify(await node.attributes())), runtime);
    assert.ok(seen.length > 20);
    assert.ok(!seen.join('\n').includes(DEFAULT_MOCK_SECRET));
    const password = runtime.node('mock:password')!;
    assert.ok(password.isSecure);
    assert.equal(await password.attribute('control', 'Text'), undefined);
  } finally {
    await runtime.shutdown();
  }
});

test('a provider event refreshes the runtime node without asking the provider to re-read its own data', async () => {
  const runtime = await mockRuntime();
  try {
    await walk(runtime.desktop, async () => undefined, runtime);
    const checkbox = runtime.node('mock:checkbox-autosave')!;
    let providerInvalidations = 0;
    const original = checkbox.source.invalidate.bind(checkbox.source);
    checkbox.source.invalidate = () => {
      providerInvalidations++;
      original();
    };
    const revision = checkbox.revision;
    await checkbox.performAction({ action: 'toggle' }, revision);
    assert.ok(checkbox.revision > revision, 'the event gives the node a new revision');
    assert.deepEqual(toJsonValue((await checkbox.attribute('control', 'ToggleState'))!.value), 'On');
    assert.equal(providerInvalidations, 0, 'the NodeUpdated event did not invalidate the provider node');
    checkbox.invalidate({ children: false });
    assert.equal(providerInvalidations, 1, 'a refresh from outside (a front end) still does');
  } finally {
    await runtime.shutdown();
  }
});

test('actions change state, events invalidate, stale targets are refused', async () => {
  const runtime = await mockRuntime();
  try {
    await walk(runtime.desktop, async () => undefined, runtime);
    const events: string[] = [];
    runtime.registerEventSink((event) => events.push(`${event.kind} ${'runtimeId' in event ? event.runtimeId : ''}`));
    const checkbox = runtime.node('mock:checkbox-autosave')!;
    assert.deepEqual(toJsonValue((await checkbox.attribute('control', 'ToggleState'))!.value), 'Off');
    const shownRevision = checkbox.revision;
    await checkbox.performAction({ action: 'toggle' }, shownRevision);
    assert.deepEqual(events, ['NodeUpdated mock:checkbox-autosave']);
    assert.deepEqual(toJsonValue((await checkbox.attribute('control', 'ToggleState'))!.value), 'On');
    await assert.rejects(
      checkbox.performAction({ action: 'toggle' }, shownRevision),
      (error: Error & { code?: string }) => {
        return error.code === 'stale-node' && /changed since it was shown/.test(error.message);
      },
    );
    await assert.rejects(runtime.node('mock:button-flaky')!.performAction({ action: 'focus' }), /scripted failure/);
    await assert.rejects(
      runtime.node('mock:list-results')!.performAction({ action: 'toggle' }),
      /does not support Toggleable/,
    );
    const preferences = runtime.node('mock:window-preferences')!;
    await preferences.performAction({ action: 'close' });
    assert.equal(runtime.node('mock:window-preferences'), undefined);
    assert.ok(!(await runtime.desktop.children()).some((c) => c.runtimeId === 'mock:window-preferences'));
    await assert.rejects(preferences.performAction({ action: 'focus' }), /no longer exists/);
  } finally {
    await runtime.shutdown();
  }
});

test('mock devices log what they were asked to do', async () => {
  const runtime = await mockRuntime();
  try {
    const devices = runtime.platform as MockDevices;
    await devices.pointer.moveTo({ x: 5, y: 6 });
    await devices.pointer.press('left');
    await devices.pointer.release('left');
    assert.deepEqual(devices.takePointerLog(), ['move 5,6', 'press left', 'release left']);
    assert.deepEqual(devices.takePointerLog(), []);
    await devices.keyboard.send(devices.keyboard.keyCode('enter'), 'press');
    assert.deepEqual(devices.takeKeyboardLog(), ['press Enter']);
    assert.throws(() => devices.keyboard.keyCode('Hyper'), /unsupported key "Hyper"; known keys: /);
  } finally {
    await runtime.shutdown();
  }
});

test('shutdown is idempotent and the provider refuses work afterwards', async () => {
  const runtime = await mockRuntime();
  await runtime.shutdown();
  await runtime.shutdown();
  await assert.rejects(runtime.desktop.children(), /shut down/);
});

test('after a whole-tree invalidation the desktop hands out live nodes, known to the runtime again', async () => {
  const runtime = await mockRuntime();
  try {
    const before = await runtime.desktop.children();
    const provider = runtime.providers[0] as unknown as { emit(event: { kind: 'TreeInvalidated' }): void };
    provider.emit({ kind: 'TreeInvalidated' });
    const after = await runtime.desktop.children();
    assert.deepEqual(
      after.map((node) => node.runtimeId),
      before.map((node) => node.runtimeId),
    );
    assert.ok(after.every((node) => !node.isRemoved && runtime.node(node.runtimeId) === node));
    assert.ok(before.every((node) => node.isRemoved));
  } finally {
    await runtime.shutdown();
  }
});
