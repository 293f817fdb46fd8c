import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { WebSocket } from 'ws';
import { seededRandom } from '../../../../shared/random.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const LIMITS = {
  maxMessageBytes: 64 * 1024,
  maxMessageDepth: 64,
  maxSettingsBytes: 16 * 1024,
  maxConnections: 8,
  maxPendingRequests: 16,
  sendBufferBytes: 256 * 1024,
  maxResults: 1000,
  evaluationTimeoutMs: 2000,
};

interface Memory {
  rss: number;
  heapUsed: number;
  external: number;
  faults: number;
  gc: boolean;
}

class Host {
  private buffer = '';
  private readonly waiters: Array<(line: string) => void> = [];
  constructor(readonly child: ChildProcess) {
    child.stdout!.on('data', (chunk: Buffer) => {
      this.buffer += chunk.toString();
      let at: number;
      while ((at = this.buffer.indexOf('\n')) >= 0) {
        const line = this.buffer.slice(0, at);
        this.buffer = this.buffer.slice(at + 1);
        this.waiters.shift()?.(line);
      }
    });
  }
  line(): Promise<string> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }
  async memory(): Promise<Memory> {
    const next = this.line();
    this.child.stdin!.write('mem\n');
    return JSON.parse((await next).replace(/^MEM /, '')) as Memory;
  }
}

function open(port: number, token: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}/api/ws?token=${token}`);
    socket.once('open', () => resolve(socket));
    socket.once('error', reject);
    socket.on('error', () => undefined);
  });
}

/** A request envelope of exactly `bytes` bytes of JSON (settings.set with one string value). */
function sized(id: number, bytes: number): string {
  const head = `{"kind":"request","id":${id},"method":"settings.set","params":{"values":{"k":"`;
  const tail = '"}}}';
  return head + 'x'.repeat(Math.max(0, bytes - head.length - tail.length)) + tail;
}

function nested(id: number, depth: number): string {
  return `{"kind":"request","id":${id},"method":"settings.set","params":{"values":{"k":${'['.repeat(depth)}${']'.repeat(depth)}}}}`;
}

const JUNK: unknown[] = [null, true, -1, 1.5, 2 ** 53, 'x', [], {}, [1, [2]], { a: { b: 1 } }, 'é\u0000', -0];

function adversarial(random: () => number, id: number): string | Buffer {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const request = (method: string, params: unknown) => JSON.stringify({ kind: 'request', id, method, params });
  switch (Math.floor(random() * 14)) {
    case 0:
      return nested(id, pick([LIMITS.maxMessageDepth - 3, LIMITS.maxMessageDepth - 2, 200, 5000, 20_000]));
    case 1:
      return sized(id, pick([LIMITS.maxMessageBytes - 1, LIMITS.maxMessageBytes, LIMITS.maxSettingsBytes + 100]));
    case 2:
      return sized(id, LIMITS.maxMessageBytes + 1 + Math.floor(random() * 1000)); // over: the host closes (1009)
    case 3:
      return JSON.stringify({ kind: pick(JUNK), id: pick(JUNK), method: pick(JUNK), params: pick(JUNK) });
    case 4:
      return request(`no.such.method.${Math.floor(random() * 100)}`, {});
    case 5:
      return pick(['', '{', 'null', '[]', '"request"', '{"kind":"request"', '\u0000\u0001', '1e999999']);
    case 6:
      return Buffer.from([0xff, 0xfe, 0x00, Math.floor(random() * 256)]);
    case 7:
      return request(
        pick(['evaluate', 'children', 'node', 'attributes', 'snapshot', 'highlight', 'locate']),
        pick(JUNK),
      );
    case 8:
      return request('evaluate', {
        id: `e${id}`,
        xpath: pick([
          '//*',
          '(1 to 100000000000)',
          'count((1 to 100000000000))',
          '//*[',
          '((((',
          '//Button/@*',
          '1 div 0',
        ]),
        ...(random() < 0.5 ? { timeoutMs: 1 + Math.floor(random() * 300) } : {}),
        ...(random() < 0.5 ? { maxResults: 1 + Math.floor(random() * 50) } : {}),
        queue: random() < 0.3,
      });
    case 9:
      return request('highlight', {
        rects: Array.from({ length: 2000 }, (_, i) => ({ x: i, y: i, width: 1, height: 1 })),
      });
    case 10:
      return request('snapshot', { attrs: 'all' });
    case 11:
      return request('children', { runtimeId: 'platynui:Desktop', offset: Math.floor(random() * 5), limit: 10_000 });
    case 12:
      return request('cancel', { id: 'x'.repeat(Math.floor(random() * 300)) });
    default:
      return request(pick(['status', 'desktop', 'settings.get', 'pick.stop', 'highlight.clear']), {});
  }
}

test('the host survives 1,000 adversarial messages; memory returns; a second client is served throughout', async () => {
  const child = spawn(process.execPath, ['--expose-gc', path.join(here, 'fuzz-host.js'), JSON.stringify(LIMITS)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const host = new Host(child);
  let exited = false;
  child.once('exit', () => (exited = true));
  try {
    const [, port, token] = (await host.line()).split(' ') as [string, string, string];
    const observer = await open(Number(port), token);
    let observerId = 0;
    const ask = (method: string, params: unknown = {}) =>
      new Promise<{ ok: boolean; ms: number }>((resolve, reject) => {
        const id = ++observerId;
        const started = performance.now();
        const timer = setTimeout(() => reject(new Error(`${method} got no answer within 5 s`)), 5000);
        const onMessage = (data: Buffer) => {
          const message = JSON.parse(data.toString()) as { kind: string; id: number; ok: boolean };
          if (message.kind !== 'response' || message.id !== id) return;
          observer.off('message', onMessage);
          clearTimeout(timer);
          resolve({ ok: message.ok, ms: performance.now() - started });
        };
        observer.on('message', onMessage);
        observer.send(JSON.stringify({ kind: 'request', id, method, params }));
      });
    // warm: the worker's copy of the tree, the engines, the code paths
    for (let i = 0; i < 5; i++) {
      await ask('status');
      await ask('evaluate', { id: `w${i}`, xpath: 'count(//*)' });
    }
    const before = await host.memory();
    assert.ok(before.gc, 'the host runs with --expose-gc');

    const latencies: number[] = [];
    const evaluations: number[] = [];
    let fuzzing = true;
    const observing = (async () => {
      for (let i = 0; fuzzing; i++) {
        const evaluating = i % 2 === 1;
        const answer = evaluating
          ? await ask('evaluate', { id: `o${i}`, xpath: 'count(//Window)' })
          : await ask('status');
        assert.equal(answer.ok, true);
        (evaluating ? evaluations : latencies).push(answer.ms);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();

    const random = seededRandom(20261202);
    const sockets: WebSocket[] = [];
    let sent = 0;
    let closedByHost = 0;
    const attacker = async () => {
      let socket = await open(Number(port), token);
      sockets.push(socket);
      while (sent < 1000) {
        if (socket.readyState !== WebSocket.OPEN) {
          closedByHost++;
          socket = await open(Number(port), token);
          sockets.push(socket);
        }
        const burst = random() < 0.1 ? 60 : 1; // floods: many at once, some from a client that stops reading
        if (burst > 1 && random() < 0.5) socket.pause();
        for (let i = 0; i < burst && sent < 1000 && socket.readyState === WebSocket.OPEN; i++) {
          socket.send(adversarial(random, sent++));
        }
        await new Promise((resolve) => setTimeout(resolve, 8));
        if (random() < 0.2) socket.resume();
      }
    };
    const attackStarted = performance.now();
    await attacker();
    const attackMs = Math.round(performance.now() - attackStarted);
    for (const socket of sockets) socket.terminate();
    await new Promise((resolve) => setTimeout(resolve, 500));
    fuzzing = false;
    await observing;
    assert.equal(exited, false, 'the host is alive');
    const final = await ask('evaluate', { id: 'final', xpath: 'count(//Window)' });
    assert.equal(final.ok, true);

    await new Promise((resolve) => setTimeout(resolve, 1000));
    const afterFuzz = await host.memory();
    const summary = (values: number[]) => {
      const sorted = [...values].sort((a, b) => a - b);
      return `p50 ${sorted[Math.floor(sorted.length / 2)]!.toFixed(1)} ms, max ${sorted[sorted.length - 1]!.toFixed(1)} ms`;
    };
    const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);
    process.stdout.write(
      `# ${sent} adversarial messages in ${attackMs} ms, ${closedByHost} reconnects after the host closed a connection; ` +
        `second client: ${latencies.length} status requests ${summary(latencies)}, ` +
        `${evaluations.length} evaluations ${summary(evaluations)}; ` +
        `rss ${mb(before.rss)} -> ${mb(afterFuzz.rss)} MB, heap ${mb(before.heapUsed)} -> ${mb(afterFuzz.heapUsed)} MB; ` +
        `faults caught by the process policy: ${afterFuzz.faults}\n`,
    );
    assert.equal(afterFuzz.faults, 0, 'no fault reached the process level');
    assert.ok(afterFuzz.rss - before.rss < 50 * 1024 * 1024, `rss grew by ${mb(afterFuzz.rss - before.rss)} MB`);
    assert.ok(latencies.length > 10 && evaluations.length > 10, 'the second client was served throughout');
    observer.close();
  } finally {
    child.stdin!.end();
    if (!exited) child.kill('SIGTERM');
  }
});
