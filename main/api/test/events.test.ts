import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { InspectorClient } from '../../../shared/api/client.js';
import type { InspectorEvent } from '../../../shared/api/schema.js';
import { DEFAULT_MOCK_SECRET } from '../../providers/mock/default-tree.js';
import type { MockProvider } from '../../providers/mock/mock-provider.js';
import { rejection } from '../../../e2e/support/rejection.js';
import { openHost, type HostFixture } from './support.js';

type UiEvents = Extract<InspectorEvent, { type: 'ui.events' }>;

let fixture: HostFixture;
let client: InspectorClient;
const batches: UiEvents[] = [];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

before(async () => {
  fixture = await openHost({ providers: ['mock'], platform: 'mock' }, { limits: { eventBuffer: 100 } });
  ({ client } = await fixture.connect());
  client.on('ui.events', (event) => batches.push(event));
});
after(async () => {
  await fixture.close();
});

const mock = () => fixture.context.runtime.providers[0] as MockProvider;
const received = () => batches.flatMap((batch) => batch.events);

async function until(accept: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!accept()) {
    if (Date.now() > deadline) assert.fail(`${what}: ${JSON.stringify(received().slice(-5))}`);
    await sleep(20);
  }
}

test('a subscription delivers the kinds asked for until it ends', async () => {
  batches.length = 0;
  await client.evaluate('//*').done;
  assert.deepEqual(await client.subscribeEvents({ types: ['state-changed'] }), { subscribed: true, bufferLimit: 100 });
  const shown = await client.node('mock:checkbox-autosave');
  await client.action('mock:checkbox-autosave', shown.revision, 'toggle');
  await client.action('mock:edit-search', (await client.node('mock:edit-search')).revision, 'focus');
  await until(() => received().length > 0, 'the toggle');
  const [event] = received();
  assert.equal(event?.type, 'state-changed');
  assert.deepEqual([event?.runtimeId, event?.role, event?.name], ['mock:checkbox-autosave', 'CheckBox', 'Auto save']);
  assert.deepEqual(event?.detail, { state: 'checked', value: true });
  assert.ok(
    received().every((record) => record.type === 'state-changed'),
    'focus was not asked for (focused off is a state change)',
  );
  assert.deepEqual(await client.unsubscribeEvents(), { unsubscribed: true });
  const before = received().length;
  await client.action('mock:checkbox-autosave', (await client.node('mock:checkbox-autosave')).revision, 'toggle');
  await sleep(250);
  assert.equal(received().length, before, 'nothing after unsubscribing');
  assert.deepEqual(await client.unsubscribeEvents(), { unsubscribed: false });
});

test("a password field's text events reach the client without the text", async () => {
  batches.length = 0;
  await client.subscribeEvents({});
  mock().emitUi({
    type: 'text-changed',
    runtimeId: 'mock:password',
    change: 'insert',
    position: 0,
    length: 3,
    text: DEFAULT_MOCK_SECRET,
  });
  await until(() => received().length > 0, 'the text event');
  assert.deepEqual(received()[0]?.detail, { change: 'insert', position: 0, length: 3, secure: true });
  assert.ok(!JSON.stringify(batches).includes(DEFAULT_MOCK_SECRET));
  await client.unsubscribeEvents();
});

test('a storm is bounded per connection: the newest events arrive, drops are counted, requests are answered', async () => {
  batches.length = 0;
  await client.subscribeEvents({ types: ['text-changed', 'focus'] });
  for (let i = 0; i < 10_000; i++) {
    mock().emitUi({
      type: 'text-changed',
      runtimeId: 'mock:edit-search',
      change: 'insert',
      position: i,
      length: 1,
      text: 'x',
    });
  }
  mock().emitUi({ type: 'focus', runtimeId: 'mock:checkbox-autosave' });
  const status = await client.status();
  assert.ok(status.providers.length > 0, 'a request during the storm is answered');
  await until(() => received().some((record) => record.type === 'focus'), 'the event after the storm');
  const last = batches.at(-1)!;
  assert.equal(last.received, 10_001);
  assert.ok(last.dropped >= 10_001 - 100 - received().length, `dropped ${last.dropped}`);
  assert.ok(received().length <= 200, `at most the buffer's worth arrived: ${received().length}`);
  await client.unsubscribeEvents();
});

test('bad subscriptions are refused naming what was wrong', async () => {
  const kind = await rejection(client.request('events.subscribe', { types: ['clicked'] } as never));
  assert.equal(kind.code, 'invalid-input');
  assert.match(kind.message, /types/);
  const values = await rejection(client.subscribeEvents({ xpath: 'count(//*)' }));
  assert.match(values.message, /must select elements/);
});
