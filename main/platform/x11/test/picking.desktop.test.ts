import '../../../backends/linux.js';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { providerNodesAtPoint } from '../../../runtime/element-at-point.js';
import { KeyboardController } from '../../../runtime/input/keyboard.js';
import { PointerController } from '../../../runtime/input/pointer.js';
import { centerOf } from '../../../runtime/input/pointer-motion.js';
import type { ProviderNode } from '../../../core/provider.js';
import { Runtime } from '../../../runtime/runtime.js';
import { ProbeApp, sleep, useDesktop, type TestDesktop } from './support/desktop.js';

async function attribute(node: ProviderNode, name: string): Promise<unknown> {
  const found = (await node.attributes()).find((a) => a.namespace === 'control' && a.name === name);
  const value = await found?.read();
  return value && 'value' in value ? value.value : undefined;
}

async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 4000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!done(value) && Date.now() < deadline) {
    await sleep(50);
    value = await read();
  }
  return value;
}

describe('X11 picking and input read back through AT-SPI (desktop)', () => {
  let desktop: TestDesktop;
  let runtime: Runtime;
  let lower: ProbeApp;
  let upper: ProbeApp;

  before(async () => {
    desktop = await useDesktop();
    lower = await ProbeApp.start(desktop.env, 'Pick probe lower', 100, 100, true);
    upper = await ProbeApp.start(desktop.env, 'Pick probe upper', 200, 130, true);
    runtime = await Runtime.create({ providers: ['atspi'], platform: 'x11', env: desktop.env });
  });

  after(async () => {
    await runtime?.shutdown();
    await upper?.stop();
    await lower?.stop();
    await desktop?.stop();
  });

  const pick = (point: { x: number; y: number }, all = false) =>
    providerNodesAtPoint(runtime.platform!.windowManager, runtime.providers, point, { all });

  it('names the element on top: the check box of the upper window where the two overlap', async () => {
    const wm = runtime.platform!.windowManager!;
    await wm.activate(upper.ready.xid!);
    const check = upper.ready.check!;
    const point = { x: check.x + 30, y: check.y + check.height / 2 };
    const hits = await eventually(
      () => pick(point),
      (h) => h[0]?.nodes[0]?.role === 'CheckBox',
    );
    assert.equal(hits.length, 1);
    assert.equal(hits[0]!.window?.id, upper.ready.xid);
    assert.equal(hits[0]!.window?.processId, upper.pid);
    assert.equal(hits[0]!.nodes[0]!.role, 'CheckBox');
    assert.equal(hits[0]!.nodes[0]!.name, 'Probe check box');
    assert.equal(hits[0]!.nodes.at(-1)!.name, 'Pick probe upper', 'the chain ends at the window');
  });

  it('with all, lists the lower window under the point too, topmost first', async () => {
    const entry = upper.ready.entry!;
    // A point inside both windows' client areas.
    const point = { x: entry.x + 20, y: lower.ready.label!.y + 10 };
    const hits = await pick(point, true);
    const windows = hits.map((h) => h.window?.id);
    assert.deepEqual(windows.slice(0, 2), [upper.ready.xid, lower.ready.xid]);
    assert.ok(hits[1]!.nodes.length > 0);
    // Raising the lower window swaps the order.
    await runtime.platform!.windowManager!.activate(lower.ready.xid!);
    const swapped = await pick(point, true);
    assert.deepEqual(
      swapped.slice(0, 2).map((h) => h.window?.id),
      [lower.ready.xid, upper.ready.xid],
    );
  });

  it('typed text lands in the real text field and reads back through AT-SPI', async () => {
    const platform = runtime.platform!;
    await platform.windowManager!.activate(upper.ready.xid!);
    const pointer = new PointerController(platform.pointer!);
    const keyboard = new KeyboardController(platform.keyboard!);
    const entry = upper.ready.entry!;
    await pointer.click(centerOf(entry));
    await keyboard.type('<Ctrl+a><Delete>Grüße aus X11 €');
    const [hit] = await pick(centerOf(entry));
    const field = hit!.nodes[0]!;
    assert.equal(field.role, 'Text');
    const text = await eventually(
      async () => {
        field.invalidate();
        return attribute(field, 'Text');
      },
      (t) => t === 'Grüße aus X11 €',
    );
    assert.equal(text, 'Grüße aus X11 €');
  });

  it('a click toggles the real check box, as AT-SPI reports it', async () => {
    const platform = runtime.platform!;
    const pointer = new PointerController(platform.pointer!);
    const check = upper.ready.check!;
    const point = { x: check.x + 30, y: check.y + check.height / 2 };
    const read = async () => {
      const [hit] = await pick(point);
      const node = hit!.nodes[0]!;
      node.invalidate();
      return attribute(node, 'ToggleState');
    };
    const before = await read();
    await pointer.click(point);
    const after = await eventually(read, (state) => state !== before);
    assert.notEqual(after, before);
    assert.ok(['On', 'Off'].includes(String(after)), String(after));
  });
});
