import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { WebSocket } from 'ws';
import { InspectorClient, webSocketTransport } from '../../../../shared/api/client.js';
import { schemaCheck } from '../../../../shared/api/schema-check.js';
import { openHost, type HostFixture } from '../../../api/test/support.js';
import { rejection } from '../../../../e2e/support/rejection.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../..');
const SLOW = 'count(for $i in 1 to 300000000 return $i)';

let fixture: HostFixture;
const logs: string[] = [];

before(async () => {
  fixture = await openHost(
    { providers: ['mock'], platform: 'mock' },
    {
      limits: { maxConnections: 4, sendBufferBytes: 64 * 1024, pingIntervalMs: 300, maxSettingsBytes: 64 * 1024 },
      log: (message) => logs.push(message),
    },
  );
});
after(async () => {
  await fixture.close();
});

function raw(
  socket: WebSocket,
  text: string,
): Promise<{ id: number | null; ok: boolean; error?: { message: string } }> {
  return new Promise((resolve) => {
    const onMessage = (data: Buffer) => {
      const message = JSON.parse(data.toString()) as { kind: string; id: number | null; ok: boolean };
      if (message.kind !== 'response') return;
      socket.off('message', onMessage);
      resolve(message);
    };
    socket.on('message', onMessage);
    socket.send(text);
  });
}

test('a message nested 5,000 deep is answered with an error naming the limit; the host keeps serving', async () => {
  const { client, socket } = await fixture.connect();
  const deep = '['.repeat(5000) + ']'.repeat(5000);
  const answer = await raw(
    socket,
    `{"kind":"request","id":3,"method":"settings.set","params":{"values":{"a":${deep}}}}`,
  );
  assert.equal(answer.id, 3);
  assert.equal(answer.ok, false);
  assert.match(
    answer.error!.message,
    /nested too deeply at params\.values\.a.*more than 64 levels \(limits\.maxMessageDepth\)/,
  );
  // at the limit it passes (the envelope, params and values are three of the 64 levels)
  const atLimit = '['.repeat(61) + ']'.repeat(61);
  const accepted = await raw(
    socket,
    `{"kind":"request","id":4,"method":"settings.set","params":{"values":{"a":${atLimit}}}}`,
  );
  assert.equal(accepted.ok, true, JSON.stringify(accepted));
  assert.equal((await client.status()).platform, 'mock');
  await client.setSettings({ a: null });
  socket.close();
});

test('the result cap answers truncated: true; a request or the setting limits.maxResults lowers it', async () => {
  const { client, socket } = await fixture.connect();
  const all = await client.evaluate('//*').done;
  assert.equal(all.truncated, false);
  assert.ok(all.count > 10);
  const capped = await client.evaluate('//*', { maxResults: 5 }).done;
  assert.deepEqual([capped.count, capped.truncated], [5, true]);
  await client.setSettings({ 'limits.maxResults': 3 });
  const fromSetting = await client.evaluate('//*').done;
  assert.deepEqual([fromSetting.count, fromSetting.truncated], [3, true]);
  const exact = await client.evaluate('(//*)[position() <= 3]').done;
  assert.deepEqual([exact.count, exact.truncated], [3, false], 'exactly the cap is not cut off');
  await client.setSettings({ 'limits.maxResults': null });
  socket.close();
});

test("one connection's long evaluation does not hold up another's; a queued timeout counts from the request", async () => {
  const a = await fixture.connect();
  const b = await fixture.connect();
  let aDone = false;
  const slow = a.client.evaluate(SLOW);
  const slowDone = rejection(slow.done).finally(() => (aDone = true));
  await new Promise((resolve) => setTimeout(resolve, 150));
  const started = performance.now();
  const quick = await b.client.evaluate('count(//Window)').done;
  const waited = performance.now() - started;
  assert.equal(quick.count, 1);
  assert.equal(aDone, false, "the other connection's evaluation was answered while the long one still ran");
  // queued behind its own connection's long evaluation: the timeout runs while it waits
  const queued = a.client.evaluate('count(//*)', { queue: true, timeoutMs: 300 });
  const timedOut = await rejection(queued.done);
  assert.equal(timedOut.code, 'timeout');
  assert.match(timedOut.message, /within 300 ms \(it waited \d+ ms for a worker\)/);
  assert.equal(aDone, false);
  await slow.cancel();
  assert.equal((await slowDone).code, 'cancelled');
  process.stdout.write(`# second connection answered after ${Math.round(waited)} ms while the first evaluated\n`);
  a.socket.close();
  b.socket.close();
});

test('settings: over the size limit refused whole; the answer names keys, not values; an oversized file kept aside', async () => {
  const { client, socket } = await fixture.connect();
  await client.setSettings({ small: 'kept' });
  const refused = await rejection(client.setSettings({ big: 'x'.repeat(70 * 1024) }));
  assert.equal(refused.code, 'limit-exceeded');
  assert.match(refused.message, /over the limit of 65536 \(limits\.maxSettingsBytes\); nothing was changed/);
  assert.deepEqual((await client.getSettings()).settings, { small: 'kept' });
  const answer = await client.setSettings({ other: 'y'.repeat(1000) });
  assert.deepEqual(answer.changed, ['other']);
  assert.ok(!JSON.stringify(answer).includes('yyyy'), 'the reply does not echo the settings');
  await client.setSettings({ small: null, other: null });
  socket.close();

  const dir = mkdtempSync(path.join(tmpdir(), 'platynui-settings-'));
  writeFileSync(path.join(dir, 'settings.json'), JSON.stringify({ huge: 'z'.repeat(20 * 1024 * 1024) }));
  const warnings: string[] = [];
  const other = await openHost({ providers: ['mock'], platform: 'mock' }, { dir, log: (m) => warnings.push(m) });
  try {
    const { client: fresh, socket: freshSocket } = await other.connect();
    assert.deepEqual(Object.keys((await fresh.getSettings()).settings), []);
    assert.ok(existsSync(path.join(dir, 'settings.json.too-large')), 'the file is kept, not overwritten');
    assert.match(warnings.join('\n'), /over the settings limit .* moved to .*too-large/);
    freshSocket.close();
  } finally {
    await other.close();
  }
});

async function noConnections(): Promise<void> {
  for (let i = 0; i < 200 && fixture.host.connections > 0; i++) await new Promise((r) => setTimeout(r, 20));
  assert.equal(fixture.host.connections, 0);
}

test('connections are capped; a client that stops reading is dropped; one that answers no ping is dropped', async () => {
  await noConnections();
  const open = await Promise.all([fixture.connect(), fixture.connect(), fixture.connect(), fixture.connect()]);
  const refused = await new Promise<number>((resolve) => {
    const socket = new WebSocket(fixture.wsUrl);
    socket.on('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
    socket.on('open', () => resolve(101));
  });
  assert.equal(refused, 503);
  for (const { socket } of open) socket.close();
  await noConnections();

  // a client that sends and never reads: what the host queues for it stays under the send buffer, then it goes
  const reader = await fixture.connect();
  reader.socket.pause();
  const closed = new Promise((resolve) => reader.socket.once('close', resolve));
  for (let i = 0; i < 3000; i++) {
    reader.socket.send(JSON.stringify({ kind: 'request', id: i, method: 'snapshot', params: { attrs: 'all' } }));
  }
  reader.socket.resume();
  await closed;
  assert.ok(
    logs.some((line) => /did not read \d+ queued bytes \(limits\.sendBufferBytes is 65536\)/.test(line)),
    logs.join('\n'),
  );

  // a peer that completed the handshake and then went silent
  const port = fixture.host.port;
  const silent = connect(port, '127.0.0.1');
  const ended = new Promise<void>((resolve) => silent.once('close', () => resolve()));
  silent.write(
    `GET /api/ws?token=${fixture.host.token} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\n` +
      'Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
  );
  silent.on('data', () => undefined);
  await ended;
  assert.ok(logs.some((line) => /no answer to a ping within 300 ms/.test(line)));
});

test('a runaway query is stopped by the default limits before the host passes 1 GB, with a clear error', async () => {
  const child = spawn(
    process.execPath,
    [path.join(root, 'bin/platynui-inspector'), 'serve', '--port', '0', '--provider', 'mock', '--no-open'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, XDG_CONFIG_HOME: mkdtempSync(path.join(tmpdir(), 'platynui-runaway-')) },
    },
  );
  try {
    const url = await new Promise<URL>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const line = /http:\/\/\S+/.exec(out);
        if (line) resolve(new URL(line[0]));
      });
      child.once('exit', (code) => reject(new Error(`serve exited with ${code}`)));
    });
    const token = new URLSearchParams(url.hash.slice(1)).get('token');
    const socket = new WebSocket(`ws://${url.host}/api/ws?token=${token}`);
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    const client = new InspectorClient(webSocketTransport(socket), { messageCheck: schemaCheck });
    const started = performance.now();
    const error = await rejection(client.evaluate('count((1 to 100000000000))').done);
    const seconds = (performance.now() - started) / 1000;
    const peakKb = Number(/VmHWM:\s*(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))![1]);
    process.stdout.write(
      `# runaway stopped after ${seconds.toFixed(1)} s with ${error.code}; host peak RSS ${Math.round(peakKb / 1024)} MB\n`,
    );
    assert.ok(error.code === 'limit-exceeded' || error.code === 'timeout', error.message);
    assert.match(error.message, /limits\.workerMemoryMb|within 30000 ms/);
    assert.ok(peakKb < 1024 * 1024, `peak RSS ${peakKb} kB`);
    // the host lives on and evaluates again (a new worker)
    assert.equal((await client.evaluate('count(//Window)').done).count, 1);
    socket.close();
  } finally {
    child.kill('SIGTERM');
  }
});
