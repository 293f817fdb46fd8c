import assert from 'node:assert/strict';
import { test } from 'node:test';
import { InspectorClient, type Transport } from '../client.js';
import { schemaCheck } from '../schema-check.js';
import { parseRequest, parseServerMessage, type RequestMessage } from '../schema.js';

test('valid requests parse, with defaults applied', () => {
  const parsed = parseRequest(
    JSON.stringify({ kind: 'request', id: 7, method: 'children', params: { runtimeId: 'a:b' } }),
  );
  assert.deepEqual(parsed, {
    ok: true,
    id: 7,
    method: 'children',
    params: { runtimeId: 'a:b', offset: 0, limit: 500, refresh: false },
  });
  const action = parseRequest({
    kind: 'request',
    id: 1,
    method: 'action',
    params: { runtimeId: 'x', expectedRevision: 3, action: 'setValue', args: { value: 'hi' } },
  });
  assert.equal(action.ok, true);
});

test('malformed messages are refused with a clear error and the request id when there is one', () => {
  const cases: Array<[unknown, number | null, RegExp]> = [
    ['{not json', null, /not valid JSON/],
    [42, null, /malformed request/],
    [null, null, /malformed request/],
    [{ kind: 'request', method: 'desktop' }, null, /malformed request: id/],
    [{ kind: 'request', id: -1, method: 'desktop' }, null, /id/],
    [{ kind: 'request', id: 3, method: 'desktop', extra: 1 }, 3, /malformed request/],
    [{ kind: 'request', id: 4, method: 'rm -rf' }, 4, /unknown method "rm -rf"/],
    [{ kind: 'request', id: 5, method: '__proto__' }, 5, /unknown method/],
    [{ kind: 'request', id: 6, method: 'toString' }, 6, /unknown method/],
    [{ kind: 'request', id: 7, method: 'children', params: {} }, 7, /children: params.runtimeId/],
    [{ kind: 'request', id: 8, method: 'children', params: { runtimeId: 'a', limit: 0 } }, 8, /params.limit/],
    [{ kind: 'request', id: 9, method: 'children', params: { runtimeId: 'a', limit: 1e9 } }, 9, /params.limit/],
    [{ kind: 'request', id: 10, method: 'desktop', params: { surprise: true } }, 10, /desktop: params/],
    [
      { kind: 'request', id: 11, method: 'action', params: { runtimeId: 'a', action: 'toggle' } },
      11,
      /expectedRevision/,
    ],
    [
      { kind: 'request', id: 12, method: 'highlight', params: { rects: [{ x: 1, y: 2, width: 'wide', height: 4 }] } },
      12,
      /params.rects.0.width/,
    ],
    [{ kind: 'request', id: 13, method: 'evaluate', params: { xpath: '//a' } }, 13, /params.id/],
    [{ kind: 'request', id: 14, method: 'settings.set', params: { values: [] } }, 14, /params.values/],
    ['x'.repeat(17 * 1024 * 1024), null, /too large/],
  ];
  for (const [raw, id, message] of cases) {
    const parsed = parseRequest(raw);
    assert.equal(parsed.ok, false, JSON.stringify(raw).slice(0, 100));
    if (!parsed.ok) {
      assert.equal(parsed.id, id, JSON.stringify(raw).slice(0, 100));
      assert.equal(parsed.error.code, 'invalid-input');
      assert.match(parsed.error.message, message);
    }
  }
});

test('server messages are validated on the client side too', () => {
  assert.equal(parseServerMessage('{"kind":"event","event":{"type":"pick.stopped","reason":"x"}}').ok, true);
  assert.equal(parseServerMessage('{"kind":"event","event":{"type":"nope"}}').ok, false);
  assert.equal(parseServerMessage('{"kind":"response","id":1,"ok":false}').ok, false);
  assert.equal(parseServerMessage('[').ok, false);
});

function loopback(reply: (request: RequestMessage) => unknown): Transport & { sent: RequestMessage[] } {
  const listeners: Array<(message: unknown) => void> = [];
  const sent: RequestMessage[] = [];
  return {
    sent,
    send(message) {
      sent.push(message);
      const answer = reply(message);
      queueMicrotask(() => listeners.forEach((listener) => listener(answer)));
    },
    onMessage(callback) {
      listeners.push(callback);
    },
  };
}

test('a client without a check takes results as sent and checks only the envelope, until checkWith', async () => {
  const problems: string[] = [];
  const transport = loopback((request) =>
    request.id === 3
      ? { kind: 'nonsense', id: request.id }
      : { kind: 'response', id: request.id, ok: true, result: { cancelled: 'yes' } },
  );
  const client = new InspectorClient(transport, {
    onProtocolError: (message) => problems.push(message),
    requestTimeoutMs: 50,
  });
  assert.deepEqual(await client.request('cancel', { id: 'a' }), { cancelled: 'yes' });
  client.checkWith(schemaCheck);
  await assert.rejects(client.cancel('b'), /cancel result: cancelled/);
  await assert.rejects(client.cancel('c'), /got no answer within 50 ms/);
  assert.equal(problems.length, 1, 'the message that is neither an event nor a response is reported');
});

test('the client rejects results that do not match the contract and reports protocol errors', async () => {
  const problems: string[] = [];
  const transport = loopback((request) =>
    request.method === 'cancel'
      ? { kind: 'response', id: request.id, ok: true, result: { cancelled: 'yes' } }
      : { kind: 'response', id: request.id, ok: true, result: { cancelled: true } },
  );
  const client = new InspectorClient(transport, {
    onProtocolError: (message) => problems.push(message),
    messageCheck: schemaCheck,
  });
  await assert.rejects(client.cancel('a'), /cancel result: cancelled/);
  await assert.rejects(client.request('pick.stop'), /pick.stop result: stopped/);
  const garbage = loopback(() => 'garbage');
  const other = new InspectorClient(garbage, {
    onProtocolError: (message) => problems.push(message),
    requestTimeoutMs: 50,
  });
  await assert.rejects(other.status(), /got no answer within 50 ms/);
  assert.ok(problems.includes('message is not valid JSON'), problems.join('\n'));
  assert.deepEqual(transport.sent[0], { kind: 'request', id: 1, method: 'cancel', params: { id: 'a' } });
});
