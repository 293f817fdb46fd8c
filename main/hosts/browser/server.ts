import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isIP } from 'node:net';
import { hostname, networkInterfaces } from 'node:os';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { MAX_MESSAGE_CHARS } from '../../../shared/api/schema.js';
import { InspectorDispatcher } from '../../api/dispatcher.js';
import type { InspectorSession } from '../../api/session.js';

/**
 * The browser host: the renderer's files over HTTP and the API over a WebSocket at /api/ws, for one desktop session.
 *
 * Security (the host can click and type on the desktop, so a web page must never reach it):
 * - it binds 127.0.0.1 unless told otherwise;
 * - every HTTP request and WebSocket upgrade carries the per-session token (256 random bits) in `?token=`, or in the
 *   cookie the first page load sets (HttpOnly, SameSite=Strict, named per port);
 * - `Host` must be one of the names this host answers to and `Origin`, when present, the host itself: a page on
 *   another site, or one reached through DNS rebinding, is refused before anything else happens.
 */

export interface BrowserHostOptions {
  session: InspectorSession;
  /** Port to listen on; 0 picks a free one. */
  port: number;
  /** Address to bind; default 127.0.0.1. */
  host?: string;
  /** Built renderer (index.html and assets); a placeholder page is served when it has no index.html. */
  rendererDir: string;
  /** Fixed token (tests); default: 32 random bytes. */
  token?: string;
}

export interface BrowserHost {
  readonly url: string;
  readonly port: number;
  readonly host: string;
  readonly token: string;
  readonly connections: number;
  close(): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);
const WS_PATH = '/api/ws';

const CONTENT_TYPES: { [ext: string]: string } = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
};

/** The Content-Security-Policy of every page the host serves (and, with `connect-src` adapted, of the shell). */
export function contentSecurityPolicy(connect: string[]): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src 'self' ${connect.join(' ')}`.trim(),
    "worker-src 'self' blob:",
    "manifest-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
    "object-src 'none'",
  ].join('; ');
}

export function isLoopback(host: string): boolean {
  return LOOPBACK.has(host) || host.startsWith('127.');
}

function tokenMatches(candidate: string | undefined, token: string): boolean {
  if (!candidate) return false;
  const a = Buffer.from(candidate);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

function placeholderPage(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>PlatynUI Inspector</title>
<style>body{font:16px system-ui,sans-serif;max-width:40em;margin:4em auto;padding:0 1em}code{background:#eee;padding:0 .3em}</style>
</head><body><main>
<h1>PlatynUI Inspector</h1>
<p role="status">The inspector's user interface is not built: <code>dist/renderer/index.html</code> is missing.</p>
<p>Run <code>npm run build</code> (it runs <code>scripts/build-renderer.mjs</code>) and reload this page.
The API is available at <code>/api/ws</code>.</p>
</main></body></html>
`;
}

export async function startBrowserHost(options: BrowserHostOptions): Promise<BrowserHost> {
  const bindHost = options.host ?? '127.0.0.1';
  const token = options.token ?? randomBytes(32).toString('base64url');
  const rendererDir = path.resolve(options.rendererDir);
  const dispatchers = new Set<InspectorDispatcher>();
  let port = 0;
  let cookieName = '';

  /** Names a browser may use in Host for this server: loopback names, and the bind address when it is not a wildcard. */
  const allowedHosts = (): Set<string> => {
    const names = new Set<string>();
    const add = (name: string) => {
      names.add(`${name}:${port}`.toLowerCase());
    };
    for (const name of ['127.0.0.1', 'localhost', '[::1]']) add(name);
    if (bindHost !== '0.0.0.0' && bindHost !== '::') add(isIP(bindHost) === 6 ? `[${bindHost}]` : bindHost);
    else {
      // a wildcard bind answers on every interface: accept this machine's own addresses and name, nothing else
      for (const entries of Object.values(networkInterfaces())) {
        for (const entry of entries ?? []) add(entry.family === 'IPv6' ? `[${entry.address}]` : entry.address);
      }
      add(hostname());
    }
    return names;
  };

  /** Why a request is refused, or undefined when it may pass. */
  const refusal = (request: IncomingMessage): { status: number; reason: string } | undefined => {
    const host = request.headers.host?.toLowerCase();
    const hosts = allowedHosts();
    if (!host || !hosts.has(host)) return { status: 421, reason: 'unknown Host header' };
    const origin = request.headers.origin;
    if (origin !== undefined && ![...hosts].some((name) => origin.toLowerCase() === `http://${name}`)) {
      return { status: 403, reason: 'foreign Origin' };
    }
    const url = new URL(request.url ?? '/', 'http://host.invalid');
    const presented = url.searchParams.get('token') ?? cookieValue(request.headers.cookie, cookieName);
    if (!tokenMatches(presented ?? undefined, token)) return { status: 403, reason: 'missing or wrong token' };
    return undefined;
  };

  const securityHeaders = (response: ServerResponse) => {
    response.setHeader('X-Content-Type-Options', 'nosniff');
    response.setHeader('Referrer-Policy', 'no-referrer');
    response.setHeader('Cache-Control', 'no-store');
    response.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
    response.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
    response.setHeader('X-Frame-Options', 'DENY');
  };

  const onRequest = (request: IncomingMessage, response: ServerResponse) => {
    securityHeaders(response);
    const refused = refusal(request);
    if (refused) {
      response.writeHead(refused.status, { 'Content-Type': 'text/plain; charset=utf-8' });
      response.end(`refused: ${refused.reason}\n`);
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' });
      response.end('method not allowed\n');
      return;
    }
    const url = new URL(request.url ?? '/', 'http://host.invalid');
    if (url.searchParams.has('token')) {
      response.setHeader('Set-Cookie', `${cookieName}=${token}; HttpOnly; SameSite=Strict; Path=/`);
    }
    response.setHeader('Content-Security-Policy', contentSecurityPolicy([`ws://${request.headers.host}`]));
    let pathname: string;
    try {
      pathname = decodeURIComponent(url.pathname);
    } catch {
      response.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8' });
      response.end('bad path\n');
      return;
    }
    if (pathname === WS_PATH) {
      response.writeHead(426, { 'Content-Type': 'text/plain; charset=utf-8' });
      response.end('the API needs a WebSocket\n');
      return;
    }
    const relative = pathname === '/' ? 'index.html' : pathname.replace(/^\/+/, '');
    const file = path.resolve(rendererDir, relative);
    if (file !== rendererDir && !file.startsWith(rendererDir + path.sep)) {
      response.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
      response.end('not found\n');
      return;
    }
    const isFile = existsSync(file) && statSync(file).isFile();
    if (!isFile) {
      if (relative === 'favicon.ico') {
        response.writeHead(204);
        response.end();
        return;
      }
      if (relative === 'index.html') {
        response.writeHead(200, { 'Content-Type': CONTENT_TYPES['.html']! });
        response.end(request.method === 'HEAD' ? undefined : placeholderPage());
        return;
      }
      response.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
      response.end('not found\n');
      return;
    }
    const type = CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
    response.writeHead(200, { 'Content-Type': type, 'Content-Length': statSync(file).size });
    if (request.method === 'HEAD') {
      response.end();
      return;
    }
    createReadStream(file)
      .on('error', () => response.destroy())
      .pipe(response);
  };

  const server: Server = createServer(onRequest);
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_CHARS * 2 });

  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const refused = refusal(request);
    const url = new URL(request.url ?? '/', 'http://host.invalid');
    const problem = refused ?? (url.pathname !== WS_PATH ? { status: 404, reason: 'no WebSocket here' } : undefined);
    if (problem) {
      socket.end(
        `HTTP/1.1 ${problem.status} Refused\r\nConnection: close\r\nContent-Type: text/plain\r\n\r\nrefused: ${problem.reason}\n`,
      );
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => accept(ws));
  };

  const accept = (ws: WebSocket) => {
    const dispatcher = new InspectorDispatcher(options.session, (message) => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
    });
    dispatchers.add(dispatcher);
    ws.on('message', (data, isBinary) => {
      const text = isBinary ? undefined : data.toString();
      void dispatcher.handle(text ?? { binary: true });
    });
    const close = () => {
      dispatchers.delete(dispatcher);
      void dispatcher.close();
    };
    ws.on('close', close);
    ws.on('error', close);
  };

  server.on('upgrade', onUpgrade);
  server.on('clientError', (_error, socket) => socket.destroy());

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, bindHost, () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  cookieName = `platynui_token_${port}`;
  const shownHost = bindHost === '0.0.0.0' || bindHost === '::' || isLoopback(bindHost) ? '127.0.0.1' : bindHost;
  const urlHost = isIP(shownHost) === 6 ? `[${shownHost}]` : shownHost;

  let closing: Promise<void> | undefined;
  return {
    url: `http://${urlHost}:${port}/?token=${token}`,
    port,
    host: bindHost,
    token,
    get connections() {
      return dispatchers.size;
    },
    close: () => {
      closing ??= (async () => {
        for (const client of wss.clients) client.terminate();
        await Promise.allSettled([...dispatchers].map((dispatcher) => dispatcher.close()));
        dispatchers.clear();
        wss.close();
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      })();
      return closing;
    },
  };
}
