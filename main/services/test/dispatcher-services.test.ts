// The requests whose logic moved from the dispatcher into services (node requests, picking, the screen, snapshots
// a connection opens, event subscriptions, the accessibility switch, host.stop), asked through the dispatcher itself
// (no transport) over the mock provider and platform.
import '../../backends/mock.js';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { InspectorEvent, MethodName, Params, Result, ServerMessage } from '../../../shared/api/schema.js';
import { InspectorError } from '../../../shared/model/errors.js';
import { InspectorDispatcher } from '../../api/dispatcher.js';
import { HostContext } from '../../api/host-context.js';
import type { MockDevices } from '../../platform/mock/mock-platform.js';

/** One connection: the dispatcher and what it sent. */
class Connection {
  readonly events: InspectorEvent[] = [];
  private readonly answers = new Map<number, ServerMessage>();
  private nextId = 1;
  readonly dispatcher: InspectorDispatcher;

  constructor(context: HostContext) {
    this.dispatcher = new InspectorDispatcher(context, (message) => {
      if (message.kind === 'event') this.events.push(message.event);
      else if (message.kind === 'response' && message.id !== null) this.answers.set(message.id, message);
    });
  }

  /** The result, or the error rebuilt as the client does. */
  async request<M extends MethodName>(method: M, params: Partial<Params<M>> = {}): Promise<Result<M>> {
    const id = this.nextId++;
    await this.dispatcher.handle({ kind: 'request', id, method, params });
    const answer = this.answers.get(id);
    assert.ok(answer?.kind === 'response', `${method} was answered`);
    if (!answer.ok) throw InspectorError.fromData(answer.error);
    return answer.result as Result<M>;
  }

  async failure(method: MethodName, params: object = {}): Promise<InspectorError> {
    const error = await this.request(method, params as never).then(
      () => assert.fail(`${method} succeeded`),
      (error: unknown) => error,
    );
    assert.ok(error instanceof InspectorError);
    return error;
  }

  ofType<T extends InspectorEvent['type']>(type: T): Array<Extract<InspectorEvent, { type: T }>> {
    return this.events.filter((event): event is Extract<InspectorEvent, { type: T }> => event.type === type);
  }
}

let dir: string;
let context: HostContext;
const devices = () => context.runtime.platform as MockDevices;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(accept: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!accept()) {
    if (Date.now() > deadline) assert.fail(what);
    await sleep(20);
  }
}

before(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'platynui-services-'));
  context = await HostContext.open({
    runtime: { providers: ['mock'], platform: 'mock' },
    settingsFile: path.join(dir, 'settings.json'),
    warn: () => undefined,
  });
});
after(async () => {
  await context.close();
  rmSync(dir, { recursive: true, force: true });
});

test('node requests: ancestors with the application, patterns, an action at its revision, stale refused', async () => {
  const connection = new Connection(context);
  try {
    await connection.request('evaluate', { id: 'all', xpath: '//*' });
    const ancestors = await connection.request('ancestors', { runtimeId: 'mock:button-save' });
    assert.deepEqual(
      ancestors.nodes.map((node) => node.runtimeId),
      ['platynui:Desktop', 'mock:app-studio', 'mock:window-studio', 'mock:pane-toolbar'],
    );
    const { patterns, revision } = await connection.request('patterns', { runtimeId: 'mock:checkbox-autosave' });
    assert.ok(patterns.some((pattern) => pattern.actions.includes('toggle')));
    const acted = await connection.request('action', {
      runtimeId: 'mock:checkbox-autosave',
      expectedRevision: revision,
      action: 'toggle',
    });
    assert.equal(acted.node.runtimeId, 'mock:checkbox-autosave');
    assert.ok(acted.node.revision > revision, 'the answer is the node after the action');
    const stale = await connection.failure('action', {
      runtimeId: 'mock:checkbox-autosave',
      expectedRevision: revision,
      action: 'toggle',
    });
    assert.equal(stale.code, 'stale-node');
    const unsupported = await connection.failure('action', {
      runtimeId: 'mock:checkbox-autosave',
      expectedRevision: acted.node.revision,
      action: 'expand',
    });
    assert.equal(unsupported.code, 'unsupported');
    assert.equal(unsupported.runtimeId, 'mock:checkbox-autosave');
  } finally {
    await connection.dispatcher.close();
  }
});

test('a snapshot a connection opens is its view until closed: read-only, its own nodes, the live view back', async () => {
  const connection = new Connection(context);
  const other = new Connection(context);
  try {
    const { xml } = await connection.request('snapshot', { attrs: 'all' });
    assert.deepEqual(await connection.request('snapshot.close'), { closed: false });
    const opened = await connection.request('snapshot.open', { xml, name: 'before.xml' });
    assert.equal(opened.name, 'before.xml');
    assert.ok(opened.nodes > 10, `the snapshot's nodes are counted (${opened.nodes})`);
    assert.deepEqual((await connection.request('status')).snapshot, { name: 'before.xml' });
    assert.equal((await other.request('status')).snapshot, undefined, 'another connection still looks at the desktop');
    const [checkbox] =
      (await connection.request('evaluate', { id: 'checkbox', xpath: "//*[@Name='Auto save']", pageSize: 10 })).items ??
      [];
    assert.ok(checkbox?.type === 'node');
    const readOnly = await connection.failure('action', {
      runtimeId: checkbox.node.runtimeId,
      expectedRevision: checkbox.node.revision,
      action: 'toggle',
    });
    assert.equal(readOnly.code, 'unsupported');
    assert.match(readOnly.message, /before\.xml is a snapshot: it is read-only/);
    assert.equal((await connection.failure('pick.start')).code, 'unsupported', 'a snapshot has no pointer');
    assert.deepEqual(await connection.request('snapshot.close'), { closed: true });
    assert.equal((await connection.request('status')).snapshot, undefined);
  } finally {
    await Promise.all([connection.dispatcher.close(), other.dispatcher.close()]);
  }
});

test('picking belongs to the connection that started it: another start takes it over, closing stops its own', async () => {
  const first = new Connection(context);
  const second = new Connection(context);
  try {
    assert.equal((await first.failure('pick.select')).code, 'invalid-input');
    await devices().pointer.moveTo({ x: 150, y: 130 });
    assert.equal((await first.request('pick.start', { intervalMs: 20 })).started, true);
    assert.equal(context.picking.active, true);
    await until(() => first.ofType('pick.hover').some((hover) => hover.node !== null), 'a hover');
    const hover = first.ofType('pick.hover').find((event) => event.node !== null)!;
    assert.equal(hover.node?.runtimeId, 'mock:button-toolbar-ok');
    assert.equal((await first.request('pick.cycle', { delta: -1 })).depth, 1);
    await second.request('pick.start', { intervalMs: 20 });
    assert.deepEqual(
      first.ofType('pick.stopped').map((event) => event.reason),
      ['another pick started'],
    );
    await first.dispatcher.close();
    assert.equal(context.picking.active, true, "closing the first connection leaves the second one's picking");
    await second.dispatcher.close();
    assert.equal(context.picking.active, false, 'closing the connection stopped its picking');
    assert.deepEqual(
      second.ofType('pick.stopped').map((event) => event.reason),
      ['the connection closed'],
    );
  } finally {
    await Promise.all([first.dispatcher.close(), second.dispatcher.close()]);
  }
});

test('picking selects the element shown, and pick.stop reports whether picking was active', async () => {
  const connection = new Connection(context);
  try {
    await devices().pointer.moveTo({ x: 150, y: 130 });
    await connection.request('pick.start', { intervalMs: 20 });
    await until(() => connection.ofType('pick.hover').some((hover) => hover.node !== null), 'a hover');
    const selected = await connection.request('pick.select');
    assert.equal(selected.node?.runtimeId, 'mock:button-toolbar-ok');
    assert.deepEqual(
      connection.ofType('pick.selected').map((event) => event.node.runtimeId),
      ['mock:button-toolbar-ok'],
    );
    assert.deepEqual(await connection.request('pick.stop'), { stopped: false });
    await connection.request('pick.start', { intervalMs: 20 });
    assert.deepEqual(await connection.request('pick.stop'), { stopped: true });
    assert.deepEqual(
      connection.ofType('pick.stopped').map((event) => event.reason),
      ['selected', 'stopped'],
    );
  } finally {
    await connection.dispatcher.close();
  }
});

test('screen requests: the element at a point as picking sees it, bounds in order, clicks and keys to the devices', async () => {
  const connection = new Connection(context);
  try {
    const { stack } = await connection.request('screen.elementAt', { x: 150, y: 130 });
    assert.equal(stack[0]?.node.runtimeId, 'mock:button-toolbar-ok');
    assert.deepEqual(stack[0]?.bounds, { x: 110, y: 115, width: 80, height: 30 });
    const { rects } = await connection.request('screen.bounds', {
      runtimeIds: ['mock:button-toolbar-ok', 'mock:nothing'],
    });
    assert.deepEqual(rects, [{ x: 110, y: 115, width: 80, height: 30 }, null]);
    devices().takePointerLog();
    devices().takeKeyboardLog();
    assert.deepEqual(await connection.request('screen.click', { x: 150, y: 130, count: 2 }), { done: true });
    assert.ok(devices().takePointerLog().length > 0, 'the click reached the pointer');
    assert.deepEqual(await connection.request('screen.type', { keys: 'ab' }), { done: true });
    assert.ok(devices().takeKeyboardLog().length > 0, 'the keys reached the keyboard');
    const capture = await connection.request('screen.capture', { region: { x: 0, y: 0, width: 4, height: 2 } });
    assert.equal(capture.mimeType, 'image/png');
    assert.ok(capture.data, 'a first capture carries its image');
    const again = await connection.request('screen.capture', {
      region: { x: 0, y: 0, width: 4, height: 2 },
      ifChanged: capture.digest,
    });
    assert.deepEqual([again.changed, again.data], [false, undefined]);
  } finally {
    await connection.dispatcher.close();
  }
});

test('an event subscription is replaced by the next and ended by opening a snapshot', async () => {
  const connection = new Connection(context);
  try {
    await connection.request('evaluate', { id: 'all', xpath: '//*' });
    const limit = context.limits.eventBuffer;
    assert.deepEqual(await connection.request('events.subscribe', { types: ['state-changed'] }), {
      subscribed: true,
      bufferLimit: limit,
    });
    assert.deepEqual(await connection.request('events.subscribe', { types: ['focus'] }), {
      subscribed: true,
      bufferLimit: limit,
    });
    const checkbox = await connection.request('node', { runtimeId: 'mock:checkbox-autosave' });
    await connection.request('action', {
      runtimeId: 'mock:checkbox-autosave',
      expectedRevision: checkbox.revision,
      action: 'toggle',
    });
    await sleep(200);
    assert.deepEqual(connection.ofType('ui.events'), [], 'the replaced subscription (state changes) sends nothing');
    const { xml } = await connection.request('snapshot', { attrs: 'default' });
    await connection.request('snapshot.open', { xml, name: 'now.xml' });
    assert.deepEqual(await connection.request('events.unsubscribe'), { unsubscribed: false }, 'the view changed');
    await connection.request('snapshot.close');
    assert.deepEqual(await connection.request('events.subscribe', {}), { subscribed: true, bufferLimit: limit });
    assert.deepEqual(await connection.request('events.unsubscribe'), { unsubscribed: true });
  } finally {
    await connection.dispatcher.close();
  }
});

test('accessibility.enable without a switch and host.stop without a stop are unsupported; host.stop stops once set', async () => {
  const connection = new Connection(context);
  try {
    assert.equal((await connection.failure('accessibility.enable')).code, 'unsupported');
    assert.equal((await connection.failure('host.stop')).code, 'unsupported');
    let stops = 0;
    context.hostStop = () => stops++;
    assert.deepEqual(await connection.request('host.stop'), { stopping: true });
    assert.equal(stops, 1);
  } finally {
    context.hostStop = undefined;
    await connection.dispatcher.close();
  }
});
