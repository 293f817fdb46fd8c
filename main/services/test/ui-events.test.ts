import '../../backends/mock.js';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { UiEventRecord } from '../../../shared/model/ui-events.js';
import { eventLine } from '../../../shared/model/ui-events.js';
import { DEFAULT_MOCK_SECRET } from '../../providers/mock/default-tree.js';
import type { MockProvider } from '../../providers/mock/mock-provider.js';
import { Runtime } from '../../runtime/runtime.js';
import { XPathService } from '../../xpath/xpath-service.js';
import { EventQueue } from '../event-queue.js';
import { UiEventWatch, type UiEventWatchOptions } from '../ui-events.js';

const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

async function withWatch(
  options: Partial<UiEventWatchOptions>,
  body: (context: {
    xpath: XPathService;
    mock: MockProvider;
    records: UiEventRecord[];
    watch: UiEventWatch;
  }) => Promise<void>,
): Promise<void> {
  const runtime = await Runtime.create({ providers: ['mock'], platform: 'mock' });
  const xpath = new XPathService(runtime);
  const records: UiEventRecord[] = [];
  const warnings: string[] = [];
  try {
    const watch = await UiEventWatch.start(
      runtime,
      xpath,
      { bufferLimit: 1000, warn: (message) => warnings.push(message), ...options },
      (record) => records.push(record),
    );
    try {
      await body({ xpath, mock: runtime.providers[0] as MockProvider, records, watch });
    } finally {
      watch.close();
    }
  } finally {
    await xpath.close();
    await runtime.shutdown();
  }
}

async function act(service: XPathService, xpath: string, action: string): Promise<void> {
  const { items } = await service.evaluate(xpath);
  const item = items[0];
  assert.ok(item?.type === 'node', `${xpath} selects a node`);
  await item.node.performAction({ action });
}

test('the queue merges events that tell a latest state and keeps those that tell a step', () => {
  const queue = new EventQueue(100);
  queue.push({ type: 'state-changed', runtimeId: 'a', state: 'checked', value: true }, 'p', 1);
  queue.push({ type: 'state-changed', runtimeId: 'a', state: 'focused', value: true }, 'p', 2);
  queue.push({ type: 'state-changed', runtimeId: 'a', state: 'checked', value: false }, 'p', 3);
  queue.push({ type: 'text-changed', runtimeId: 'a', change: 'insert', position: 0, length: 1, text: 'x' }, 'p', 4);
  queue.push({ type: 'text-changed', runtimeId: 'a', change: 'insert', position: 1, length: 1, text: 'y' }, 'p', 5);
  assert.equal(queue.size, 4);
  assert.deepEqual(queue.counts, { received: 5, coalesced: 1, dropped: 0 });
  const first = queue.take()!;
  assert.deepEqual(first.event, { type: 'state-changed', runtimeId: 'a', state: 'checked', value: false });
  assert.equal(first.time, 3, 'the merged event keeps its place and takes the latest time');
  queue.push({ type: 'state-changed', runtimeId: 'a', state: 'checked', value: true }, 'p', 6);
  assert.deepEqual(
    [queue.take(), queue.take(), queue.take(), queue.take(), queue.take()].map((q) => q?.time),
    [2, 4, 5, 6, undefined],
    'an event taken out is no longer merged into',
  );
});

test('past its limit the queue drops the oldest events and counts them, so the newest always get through', () => {
  const queue = new EventQueue(1000);
  for (let i = 0; i < 50_000; i++) {
    queue.push(
      { type: 'text-changed', runtimeId: `n${i}`, change: 'insert', position: i, length: 1, text: 'x' },
      'p',
      i,
    );
  }
  queue.push({ type: 'focus', runtimeId: 'marker' }, 'p', 50_000);
  assert.equal(queue.size, 1000);
  assert.equal(queue.counts.dropped, 49_001);
  let last;
  for (let next = queue.take(); next; next = queue.take()) last = next;
  assert.equal(last?.event.runtimeId, 'marker');
});

test('a toggled check box is a state-changed event naming the check box, with an ISO time', async () => {
  await withWatch({}, async ({ xpath, records, watch }) => {
    await act(xpath, "//CheckBox[@Name='Auto save']", 'toggle');
    await watch.idle();
    assert.equal(records.length, 1);
    const [record] = records;
    assert.match(record!.time, ISO_MS);
    assert.deepEqual(
      { ...record, time: '' },
      {
        time: '',
        type: 'state-changed',
        runtimeId: 'mock:checkbox-autosave',
        role: 'CheckBox',
        name: 'Auto save',
        detail: { state: 'checked', value: true },
      },
    );
    assert.match(
      eventLine(record!),
      /^\d\d:\d\d:\d\d\.\d{3} state-changed CheckBox "Auto save" state="checked" value=true$/,
    );
  });
});

test('only the kinds asked for are delivered', async () => {
  await withWatch({ types: ['focus'] }, async ({ xpath, records, watch }) => {
    await act(xpath, "//CheckBox[@Name='Auto save']", 'toggle');
    await act(xpath, "//Edit[@Name='Search']", 'focus');
    await watch.idle();
    assert.deepEqual(
      records.map((r) => `${r.type} ${r.runtimeId}`),
      ['focus mock:edit-search'],
    );
  });
});

test('with an XPath only events of the selected elements and their descendants are delivered', async () => {
  await withWatch({ xpath: "//Tree[@Name='Project']" }, async ({ xpath, records, watch }) => {
    await act(xpath, "//CheckBox[@Name='Auto save']", 'toggle');
    await act(xpath, "//item:TreeItem[@Name='util.ts']", 'select');
    await watch.idle();
    assert.deepEqual(
      records.map((r) => `${r.type} ${r.name} ${JSON.stringify(r.detail)}`),
      [
        'state-changed main.ts {"state":"selected","value":false}',
        'state-changed util.ts {"state":"selected","value":true}',
        'selection-changed src {}',
      ],
    );
  });
});

test('an XPath that selects other items than elements is refused', async () => {
  await assert.rejects(
    withWatch({ xpath: 'count(//Button)' }, async () => undefined),
    /must select elements/,
  );
});

test("a password field's text, name and value events carry no text; other fields' do", async () => {
  await withWatch({}, async ({ mock, records, watch }) => {
    mock.emitUi({
      type: 'text-changed',
      runtimeId: 'mock:password',
      change: 'insert',
      position: 0,
      length: DEFAULT_MOCK_SECRET.length,
      text: DEFAULT_MOCK_SECRET,
    });
    mock.emitUi({ type: 'name-changed', runtimeId: 'mock:password', name: DEFAULT_MOCK_SECRET });
    mock.emitUi({ type: 'value-changed', runtimeId: 'mock:password', value: DEFAULT_MOCK_SECRET });
    mock.emitUi({
      type: 'text-changed',
      runtimeId: 'mock:edit-search',
      change: 'insert',
      position: 5,
      length: 1,
      text: '!',
    });
    await watch.idle();
    assert.equal(records.length, 4);
    assert.ok(!JSON.stringify(records).includes(DEFAULT_MOCK_SECRET), 'the secret appears nowhere');
    assert.ok(!records.map(eventLine).join('\n').includes(DEFAULT_MOCK_SECRET));
    assert.deepEqual(records[0]!.detail, { change: 'insert', position: 0, length: 14, secure: true });
    assert.deepEqual(records[1]!.detail, { secure: true });
    assert.deepEqual(records[2]!.detail, { secure: true });
    assert.deepEqual(records[3]!.detail, { change: 'insert', position: 5, length: 1, text: '!' });
  });
});

test('a closed window is an event whose node is gone (role and name null), and its parent loses a child', async () => {
  await withWatch({}, async ({ xpath, records, watch }) => {
    await act(xpath, "//Window[@Name='Preferences']", 'close');
    await watch.idle();
    const closed = records.find((r) => r.type === 'window-closed');
    assert.deepEqual(closed && { ...closed, time: '' }, {
      time: '',
      type: 'window-closed',
      runtimeId: 'mock:window-preferences',
      role: null,
      name: null,
      detail: {},
    });
    const children = records.find((r) => r.type === 'children-changed');
    assert.equal(children?.detail.change, 'removed');
    assert.deepEqual(children?.detail.child, { runtimeId: 'mock:window-preferences', role: null, name: null });
  });
});

test('a storm of events is bounded: the newest get through, merged and dropped ones are counted', async () => {
  await withWatch({ bufferLimit: 500 }, async ({ mock, records, watch }) => {
    for (let i = 0; i < 20_000; i++) {
      mock.emitUi({
        type: 'bounds-changed',
        runtimeId: 'mock:button-save',
        bounds: { x: i, y: 0, width: 1, height: 1 },
      });
      mock.emitUi({
        type: 'text-changed',
        runtimeId: 'mock:edit-search',
        change: 'insert',
        position: i,
        length: 1,
        text: 'x',
      });
    }
    mock.emitUi({ type: 'focus', runtimeId: 'mock:checkbox-autosave' });
    await watch.idle();
    assert.equal(watch.counts.received, 40_001);
    const { coalesced, dropped } = watch.counts;
    assert.ok(coalesced > 0 && dropped > 0, `merged ${coalesced}, dropped ${dropped}`);
    assert.equal(coalesced + dropped + records.length, 40_001, 'every event was merged, dropped or delivered');
    assert.ok(records.length <= 500, 'the buffer held at most 500');
    assert.equal(records.at(-1)?.type, 'focus', 'the last event came through');
    assert.equal(records.at(-1)?.name, 'Auto save');
  });
});
