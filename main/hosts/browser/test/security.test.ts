import '../../../backends/mock.js';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { WebSocket } from 'ws';
import { isLoopback } from '../../loopback.js';
import { openBrowser, writeLaunchFile } from '../command.js';

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

function upgrade(
  url: string,
  headers: { [name: string]: string } = {},
  protocols?: string[],
): Promise<number | 'open'> {
  return new Promise((resolve) => {
    const socket = new WebSocket(url, protocols, { headers });
    socket.on('open', () => {
      socket.close();
      resolve('open');
    });
    socket.on('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
    socket.on('error', () => resolve(0));
  });
}

function tokenOf(url: URL): string {
  return new URLSearchParams(url.hash.slice(1)).get('token') ?? '';
}

/** A built UI with what a build also leaves next to it: tests, source maps, a dot file. */
function rendererWithBuildLeftovers(withIndex: boolean): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'platynui-renderer-'));
  if (withIndex) writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>ui</title>');
  writeFileSync(path.join(dir, 'app.js'), 'console.log(1);\n//# sourceMappingURL=app.js.map\n');
  writeFileSync(path.join(dir, 'app.js.map'), '{"version":3}');
  mkdirSync(path.join(dir, 'test'));
  writeFileSync(path.join(dir, 'test', 'store.test.js'), 'export {};');
  writeFileSync(path.join(dir, '.env'), 'SECRET=1');
  return dir;
}

let served: Served;
let base: string;
let token: string;
let host: string;

before(async () => {
  // no index.html: the placeholder page is served
  served = await serve('--renderer', rendererWithBuildLeftovers(false));
  token = tokenOf(served.url);
  host = served.url.host;
  base = `http://${host}`;
});
after(() => {
  served.child.kill('SIGTERM');
});

test('serve prints a loopback address with a token of at least 128 bits in its fragment and binds loopback only', () => {
  assert.equal(served.url.hostname, '127.0.0.1');
  assert.equal(served.url.pathname, '/');
  assert.equal(served.url.search, '', 'the token is never in the part of the address a request carries');
  assert.ok(Buffer.from(token, 'base64url').length * 8 >= 128, token);
  assert.ok(Number(served.url.port) > 0);
});

test('the UI is served without a token and without a cookie; only the UI bundle, no tests or source maps', async () => {
  const page = await get(`${base}/`);
  assert.equal(page.status, 200);
  assert.match(page.body, /not built/, 'without dist/renderer/index.html a placeholder page explains what to do');
  assert.equal(page.headers['set-cookie'], undefined, 'no cookie carries the token');
  const csp = String(page.headers['content-security-policy']);
  assert.match(csp, /default-src 'none'/);
  assert.match(csp, /script-src 'self'(;|$)/);
  assert.equal(page.headers['referrer-policy'], 'no-referrer');
  assert.equal((await get(`${base}/app.js`)).status, 200);
  assert.equal((await get(`${base}/app.js.map`)).status, 404, 'source maps only with --source-maps');
  assert.equal((await get(`${base}/test/store.test.js`)).status, 404, 'compiled tests are not part of the UI');
  assert.equal((await get(`${base}/.env`)).status, 404);
  assert.equal((await get(`${base}/../../etc/passwd`)).status, 404);
  const withMaps = await serve('--renderer', rendererWithBuildLeftovers(true), '--source-maps');
  try {
    assert.equal((await get(`http://${withMaps.url.host}/app.js.map`)).status, 200);
    assert.equal((await get(`http://${withMaps.url.host}/test/store.test.js`)).status, 404);
  } finally {
    withMaps.child.kill('SIGTERM');
  }
});

test('foreign Host and Origin headers are refused (DNS rebinding)', async () => {
  const port = served.url.port;
  assert.equal((await get(`${base}/`, { Host: `evil.example:${port}` })).status, 421);
  assert.equal((await get(`${base}/`, { Host: `127.0.0.1:1` })).status, 421);
  assert.equal((await get(`${base}/`, { Host: `localhost:${port}` })).status, 200);
  assert.equal((await get(`${base}/`, { Origin: 'http://evil.example' })).status, 403);
  assert.equal((await get(`${base}/`, { Origin: 'null' })).status, 403);
  assert.equal((await get(`${base}/`, { Origin: `https://${host}` })).status, 403);
  assert.equal((await get(`${base}/`, { Origin: `http://${host}` })).status, 200);
});

test('the WebSocket upgrade needs the token (subprotocol or address), our Host and our Origin', async () => {
  const ws = `ws://${host}/api/ws`;
  const origin = { Origin: `http://${host}` };
  assert.equal(await upgrade(ws), 403);
  assert.equal(await upgrade(`${ws}?token=wrong`), 403);
  assert.equal(await upgrade(ws, origin, ['platynui.v1', 'platynui.token.wrong']), 403);
  assert.equal(await upgrade(`${ws}?token=${token}`, { Origin: 'http://evil.example' }), 403);
  assert.equal(await upgrade(`${ws}?token=${token}`, { Host: `rebound.example:${served.url.port}` }), 421);
  assert.equal(await upgrade(`ws://${host}/elsewhere?token=${token}`), 404);
  assert.equal(await upgrade(`${ws}?token=${token}`, origin), 'open');
  // what the page does: the token from the fragment as a subprotocol, the API's protocol chosen by the host
  const socket = new WebSocket(ws, ['platynui.v1', `platynui.token.${token}`], { headers: origin });
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  assert.equal(socket.protocol, 'platynui.v1');
  socket.close();
  assert.equal(await upgrade(ws, { ...origin, Cookie: `platynui_token_${served.url.port}=${token}` }), 403);
});

test('loopback is decided by parsing addresses, not by their text', () => {
  for (const address of [
    '127.0.0.1',
    '127.0.0.2',
    '127.255.255.254',
    '::1',
    '[::1]',
    '::ffff:127.0.0.1',
    'localhost',
  ]) {
    assert.equal(isLoopback(address), true, address);
  }
  for (const address of ['127.evil.example', '128.0.0.1', '0.0.0.0', '::', '10.0.0.1', '127.0.0.1.nip.io', '']) {
    assert.equal(isLoopback(address), false, address);
  }
});

test('--host 127.0.0.2 prints the address it listens on, and it answers there', async () => {
  const other = await serve('--host', '127.0.0.2');
  try {
    assert.equal(other.url.hostname, '127.0.0.2');
    assert.equal((await get(`http://${other.url.host}/`)).status, 200);
    assert.equal(await upgrade(`ws://${other.url.host}/api/ws?token=${tokenOf(other.url)}`), 'open');
    assert.doesNotMatch(other.stderr(), /reachable from other machines/);
  } finally {
    other.child.kill('SIGTERM');
  }
});

test('the browser is opened through a 0600 launch file: the token is on no command line', async () => {
  const url = 'http://127.0.0.1:1234/#token=s3cr3t-token_value';
  const launch = writeLaunchFile(url);
  try {
    assert.equal(statSync(launch.file).mode & 0o777, 0o600);
    assert.equal(statSync(path.dirname(launch.file)).mode & 0o777, 0o700);
    assert.ok(readFileSync(launch.file, 'utf8').includes(`location.replace("${url}")`));
  } finally {
    launch.remove();
  }
  // a stand-in xdg-open records its arguments and what the file it was given says
  const bin = mkdtempSync(path.join(tmpdir(), 'platynui-xdg-'));
  const record = path.join(bin, 'record.txt');
  writeFileSync(path.join(bin, 'xdg-open'), `#!/bin/sh\necho "ARGS $*" > ${record}\ncat "$1" >> ${record}\n`);
  chmodSync(path.join(bin, 'xdg-open'), 0o755);
  const remove = openBrowser(url, { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}`, DISPLAY: ':99' });
  try {
    assert.ok(remove, 'the browser was started');
    let text = '';
    for (let i = 0; i < 100 && !text.includes('</html>'); i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      try {
        text = readFileSync(record, 'utf8');
      } catch {
        // not written yet
      }
    }
    const args = text.split('\n')[0]!;
    assert.match(args, /^ARGS \/.*open\.html$/);
    assert.ok(!args.includes('s3cr3t'), args);
    assert.ok(text.includes(url), 'the file hands the address on');
  } finally {
    remove?.();
  }
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
  await assert.rejects(get(`http://${address}:${served.url.port}/`), /ECONNREFUSED/);
  const wide = await serve('--host', '0.0.0.0');
  try {
    for (let i = 0; i < 100 && !/reachable from other machines/.test(wide.stderr()); i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.match(wide.stderr(), /reachable from other machines/);
    const wideToken = tokenOf(wide.url);
    const remote = `${address}:${wide.url.port}`;
    assert.equal((await get(`http://${remote}/`)).status, 200);
    assert.equal(await upgrade(`ws://${remote}/api/ws`), 403);
    assert.equal(await upgrade(`ws://${remote}/api/ws?token=${wideToken}`), 'open');
    assert.equal((await get(`http://${remote}/`, { Host: `evil.example:${wide.url.port}` })).status, 421);
  } finally {
    wide.child.kill('SIGTERM');
  }
});

test('SIGTERM and SIGINT shut the host down cleanly', async () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    const instance = await serve();
    const socket = new WebSocket(`ws://${instance.url.host}/api/ws?token=${tokenOf(instance.url)}`);
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    const closed = new Promise((resolve) => socket.once('close', resolve));
    const exited = new Promise<number | null>((resolve) => instance.child.once('exit', (code) => resolve(code)));
    instance.child.kill(signal);
    assert.equal(await exited, 0, instance.stderr());
    await closed;
    assert.match(instance.stderr(), new RegExp(`stopping \\(${signal}\\)`));
  }
});
