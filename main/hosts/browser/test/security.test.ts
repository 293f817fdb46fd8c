import '../../../backends/mock.js';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { WebSocket } from 'ws';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../..');
const bin = path.join(root, 'bin/platynui-inspector');

interface Served {
  child: ChildProcess;
  url: URL;
  stderr: () => string;
}

async function serve(...args: string[]): Promise<Served> {
  const child = spawn(process.execPath, [bin, 'serve', '--port', '0', '--provider', 'mock', '--no-open', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, XDG_CONFIG_HOME: path.join(root, 'dist', '.test-config') },
  });
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = await new Promise<URL>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no address printed; stderr: ${stderr}`)), 30_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const line = stdout.split('\n').find((candidate) => candidate.startsWith('http://'));
      if (line) {
        clearTimeout(timer);
        resolve(new URL(line.trim()));
      }
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
  });
  return { child, url, stderr: () => stderr };
}

function get(
  url: string,
  headers: { [name: string]: string } = {},
): Promise<{ status: number; headers: { [name: string]: string | string[] | undefined }; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

function upgrade(url: string, headers: { [name: string]: string } = {}): Promise<number | 'open'> {
  return new Promise((resolve) => {
    const socket = new WebSocket(url, { headers });
    socket.on('open', () => {
      socket.close();
      resolve('open');
    });
    socket.on('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
    socket.on('error', () => resolve(0));
  });
}

let served: Served;
let base: string;
let token: string;
let host: string;

before(async () => {
  // an empty renderer directory: the placeholder page is served
  served = await serve('--renderer', mkdtempSync(path.join(tmpdir(), 'platynui-renderer-')));
  token = served.url.searchParams.get('token')!;
  host = served.url.host;
  base = `http://${host}`;
});
after(() => {
  served.child.kill('SIGTERM');
});

test('serve prints a loopback address with a token of at least 128 bits and binds loopback only', () => {
  assert.equal(served.url.hostname, '127.0.0.1');
  assert.equal(served.url.pathname, '/');
  assert.ok(Buffer.from(token, 'base64url').length * 8 >= 128, token);
  assert.ok(Number(served.url.port) > 0);
});

test('HTTP requests need the token; the page load sets a cookie for its own assets', async () => {
  assert.equal((await get(`${base}/`)).status, 403);
  assert.equal((await get(`${base}/?token=wrong`)).status, 403);
  assert.equal((await get(`${base}/?token=${token}x`)).status, 403);
  const page = await get(`${base}/?token=${token}`);
  assert.equal(page.status, 200);
  assert.match(page.body, /PlatynUI Inspector/);
  assert.match(page.body, /not built/, 'without dist/renderer a placeholder page explains what to do');
  const csp = String(page.headers['content-security-policy']);
  assert.match(csp, /default-src 'none'/);
  assert.match(csp, /script-src 'self'(;|$)/);
  assert.equal(page.headers['referrer-policy'], 'no-referrer');
  const cookie = String(page.headers['set-cookie']);
  assert.match(cookie, /HttpOnly/);
  assert.match(cookie, /SameSite=Strict/);
  const pair = cookie.split(';')[0]!;
  assert.equal((await get(`${base}/`, { Cookie: pair })).status, 200);
  assert.equal((await get(`${base}/`, { Cookie: pair.replace(/=.*/, '=nope') })).status, 403);
  assert.equal((await get(`${base}/../../etc/passwd?token=${token}`)).status, 404);
});

test('foreign Host and Origin headers are refused (DNS rebinding)', async () => {
  const port = served.url.port;
  assert.equal((await get(`${base}/?token=${token}`, { Host: `evil.example:${port}` })).status, 421);
  assert.equal((await get(`${base}/?token=${token}`, { Host: `127.0.0.1:1` })).status, 421);
  assert.equal((await get(`${base}/?token=${token}`, { Host: `localhost:${port}` })).status, 200);
  assert.equal((await get(`${base}/?token=${token}`, { Origin: 'http://evil.example' })).status, 403);
  assert.equal((await get(`${base}/?token=${token}`, { Origin: 'null' })).status, 403);
  assert.equal((await get(`${base}/?token=${token}`, { Origin: `https://${host}` })).status, 403);
  assert.equal((await get(`${base}/?token=${token}`, { Origin: `http://${host}` })).status, 200);
});

test('the WebSocket upgrade needs the token, our Host and our Origin', async () => {
  const ws = `ws://${host}/api/ws`;
  assert.equal(await upgrade(ws), 403);
  assert.equal(await upgrade(`${ws}?token=wrong`), 403);
  assert.equal(await upgrade(`${ws}?token=${token}`, { Origin: 'http://evil.example' }), 403);
  assert.equal(await upgrade(`${ws}?token=${token}`, { Host: `rebound.example:${served.url.port}` }), 421);
  assert.equal(await upgrade(`ws://${host}/elsewhere?token=${token}`), 404);
  assert.equal(await upgrade(`${ws}?token=${token}`, { Origin: `http://${host}` }), 'open');
  const page = await get(`${base}/?token=${token}`);
  const cookie = String(page.headers['set-cookie']).split(';')[0]!;
  assert.equal(await upgrade(ws, { Cookie: cookie, Origin: `http://${host}` }), 'open');
});

function externalAddress(): string | undefined {
  for (const entries of Object.values(networkInterfaces())) {
    for (const entry of entries ?? []) if (entry.family === 'IPv4' && !entry.internal) return entry.address;
  }
  return undefined;
}

test('a non-loopback address is not served unless --host says so', async (t) => {
  const address = externalAddress();
  if (!address) {
    // no external interface on this machine: the loopback bind is all there is to check
    assert.equal(served.url.hostname, '127.0.0.1');
    t.diagnostic('no non-loopback IPv4 interface here');
    return;
  }
  await assert.rejects(get(`http://${address}:${served.url.port}/?token=${token}`), /ECONNREFUSED/);
  const wide = await serve('--host', '0.0.0.0');
  try {
    for (let i = 0; i < 100 && !/reachable from other machines/.test(wide.stderr()); i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.match(wide.stderr(), /reachable from other machines/);
    const wideToken = wide.url.searchParams.get('token')!;
    const remote = `http://${address}:${wide.url.port}`;
    assert.equal((await get(`${remote}/?token=${wideToken}`)).status, 200);
    assert.equal((await get(`${remote}/`)).status, 403);
    assert.equal((await get(`${remote}/?token=${wideToken}`, { Host: `evil.example:${wide.url.port}` })).status, 421);
  } finally {
    wide.child.kill('SIGTERM');
  }
});

test('SIGTERM and SIGINT shut the host down cleanly', async () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    const instance = await serve();
    const socket = new WebSocket(`ws://${instance.url.host}/api/ws?token=${instance.url.searchParams.get('token')}`);
    await new Promise((resolve) => socket.once('open', resolve));
    const closed = new Promise((resolve) => socket.once('close', resolve));
    const exited = new Promise<number | null>((resolve) => instance.child.once('exit', (code) => resolve(code)));
    instance.child.kill(signal);
    assert.equal(await exited, 0, instance.stderr());
    await closed;
    assert.match(instance.stderr(), new RegExp(`stopping \\(${signal}\\)`));
  }
});
