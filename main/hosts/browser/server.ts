import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isIP } from 'node:net';
import { hostname, networkInterfaces } from 'node:os';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { InspectorDispatcher } from '../../api/dispatcher.js';
import type { HostContext } from '../../api/host-context.js';
import { isLoopback } from '../loopback.js';
import { peerProcessIds } from './peer-process.js';
import { uiFile } from '../ui-files.js';

export { isLoopback };

/** The WebSocket subprotocol of the API; the page offers it with `platynui.token.<token>`. */
export const API_PROTOCOL = 'platynui.v1';
export const TOKEN_PROTOCOL_PREFIX = 'platynui.token.';

/**
 * The browser host: the renderer's files over HTTP and the API over a WebSocket at /api/ws, for one desktop context.
 *
 * Security (the host can click and type on the desktop, so a web page must never reach it):
 * - it binds 127.0.0.1 unless told otherwise;
 * - `Host` must be one of the names this host answers to and `Origin`, when present, the host itself: a page on
 *   another site, or one reached through DNS rebinding, is refused before anything else happens;
 * - the UI's files (the same for everyone, no data in them) need nothing more; the API needs the per-context token
 *   (256 random bits), which no cookie carries: the printed address holds it in its fragment (`#token=`, never sent
 *   to a server), the page sends it as a WebSocket subprotocol (`platynui.token.<token>`); other clients may put
 *   it in the WebSocket address (`/api/ws?token=`);
 * - every resource a connection can make the host spend has a limit (limits.ts): message size and depth, requests
 *   in flight, connections, bytes queued for a client that does not read, a ping the client must answer.
 */

export interface BrowserHostOptions {
  context: HostContext;
  /** Port to listen on; 0 picks a free one. */
  port: number;
  /** Address to bind; default 127.0.0.1. */
  host?: string;
  /** Built renderer (index.html and assets); a placeholder page is served when it has no index.html. */
  rendererDir: string;
  /** Fixed token (tests); default: 32 random bytes. */
  token?: string;
  /** Serve the UI's source maps too (default: not). */
  sourceMaps?: boolean;
  /** Where the host reports dropped clients; default stderr. */
  log?: (message: string) => void;
}

export interface BrowserHost {
  readonly url: string;
  readonly port: number;
  readonly host: string;
  readonly token: string;
  /** The address the server really listens on (127.0.0.2 when bound there; the bind address for a wildcard). */
  readonly address: string;
  readonly connections: number;
  close(): Promise<void>;
}

const WS_PATH = '/api/ws';

const CONTENT_TYPES: { [ext: string]: string } = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
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

function tokenMatches(candidate: string | undefined, token: string): boolean {
  if (!candidate) return false;
  const a = Buffer.from(candidate);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The token a WebSocket upgrade presents: as a subprotocol (the page) or in the address (other clients). */
function presentedToken(request: IncomingMessage, url: URL): string | undefined {
  const protocols = request.headers['sec-websocket-protocol'];
  for (const protocol of (protocols ?? '').split(',')) {
    const name = protocol.trim();
    if (name.startsWith(TOKEN_PROTOCOL_PREFIX)) return name.slice(TOKEN_PROTOCOL_PREFIX.length);
  }
  return url.searchParams.get('token') ?? undefined;
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
  const log = options.log ?? ((message: string) => process.stderr.write(`platynui-inspector: ${message}\n`));
  const limits = options.context.limits;
  const dispatchers = new Set<InspectorDispatcher>();
  let port = 0;
  let listening = '';

  /** Names a browser may use in Host for this server: loopback names, and the bind address when it is not a wildcard. */
  const allowedHosts = (): Set<string> => {
    const names = new Set<string>();
    const add = (name: string) => {
      names.add(`${isIP(name) === 6 ? `[${name}]` : name}:${port}`.toLowerCase());
    };
    for (const name of ['127.0.0.1', 'localhost', '::1']) add(name);
    if (bindHost !== '0.0.0.0' && bindHost !== '::') {
      add(bindHost);
      add(listening);
    } else {
      // a wildcard bind answers on every interface: accept this machine's own addresses and name, nothing else
      for (const entries of Object.values(networkInterfaces())) {
        for (const entry of entries ?? []) add(entry.address);
      }
      add(hostname());
    }
    return names;
  };

  /** Why a request is refused (Host and Origin; the token too when `needsToken`), or undefined when it may pass. */
  const refusal = (request: IncomingMessage, needsToken: boolean): { status: number; reason: string } | undefined => {
    const host = request.headers.host?.toLowerCase();
    const hosts = allowedHosts();
    if (!host || !hosts.has(host)) return { status: 421, reason: 'unknown Host header' };
    const origin = request.headers.origin;
    if (origin !== undefined && ![...hosts].some((name) => origin.toLowerCase() === `http://${name}`)) {
      return { status: 403, reason: 'foreign Origin' };
    }
    if (!needsToken) return undefined;
    const url = new URL(request.url ?? '/', 'http://host.invalid');
    if (!tokenMatches(presentedToken(request, url), token)) return { status: 403, reason: 'missing or wrong token' };
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

  const plain = (response: ServerResponse, status: number, text: string, headers: { [name: string]: string } = {}) => {
    response.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', ...headers });
    response.end(text);
  };

  const onRequest = (request: IncomingMessage, response: ServerResponse) => {
    securityHeaders(response);
    const refused = refusal(request, false);
    if (refused) return plain(response, refused.status, `refused: ${refused.reason}\n`);
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return plain(response, 405, 'method not allowed\n', { Allow: 'GET, HEAD' });
    }
    const url = new URL(request.url ?? '/', 'http://host.invalid');
    response.setHeader('Content-Security-Policy', contentSecurityPolicy([`ws://${request.headers.host}`]));
    let pathname: string;
    try {
      pathname = decodeURIComponent(url.pathname);
    } catch {
      return plain(response, 400, 'bad path\n');
    }
    if (pathname === WS_PATH) return plain(response, 426, 'the API needs a WebSocket\n');
    const file = uiFile(rendererDir, pathname, { sourceMaps: options.sourceMaps === true });
    const isFile = file !== undefined && existsSync(file) && statSync(file).isFile();
    if (!file || !isFile) {
      const relative = pathname.replace(/^\/+/, '') || 'index.html';
      if (relative === 'favicon.ico') {
        response.writeHead(204);
        response.end();
        return;
      }
      if (relative === 'index.html' && file) {
        response.writeHead(200, { 'Content-Type': CONTENT_TYPES['.html']! });
        response.end(request.method === 'HEAD' ? undefined : placeholderPage());
        return;
      }
      return plain(response, 404, 'not found\n');
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
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: limits.maxMessageBytes,
    handleProtocols: (protocols) => (protocols.has(API_PROTOCOL) ? API_PROTOCOL : false),
  });

  const reject = (socket: Duplex, status: number, reason: string) => {
    socket.end(
      `HTTP/1.1 ${status} Refused\r\nConnection: close\r\nContent-Type: text/plain\r\n\r\nrefused: ${reason}\n`,
    );
  };

  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(request.url ?? '/', 'http://host.invalid');
    const refused = refusal(request, true);
    if (refused) return reject(socket, refused.status, refused.reason);
    if (url.pathname !== WS_PATH) return reject(socket, 404, 'no WebSocket here');
    if (dispatchers.size >= limits.maxConnections) {
      return reject(socket, 503, `too many connections (limits.maxConnections is ${limits.maxConnections})`);
    }
    wss.handleUpgrade(request, socket, head, (ws) => accept(ws, request));
  };

  // A client on this machine: its browser's windows are the inspector's own while it is connected, so that clicks
  // on the inspector's page (Stop) are never recorded and its window is never picked.
  const excludePeer = (request: IncomingMessage): (() => void) => {
    const { remoteAddress, localPort, remotePort } = request.socket;
    const exclude = options.context.runtime.platform?.excludeProcesses;
    if (!exclude || !remoteAddress || !isLoopback(remoteAddress) || !localPort || !remotePort) return () => {};
    const ids = peerProcessIds({ localPort, remotePort }).filter((id) => id !== process.pid);
    return ids.length > 0 ? exclude(ids) : () => {};
  };

  const alive = new WeakMap<WebSocket, boolean>();

  const accept = (ws: WebSocket, request: IncomingMessage) => {
    const endExclusion = excludePeer(request);
    let pendingRequests = 0;
    let paused = false;
    const drop = (reason: string) => {
      log(`dropped a WebSocket client: ${reason}`);
      ws.terminate();
    };
    const dispatcher = new InspectorDispatcher(options.context, (message) => {
      if (ws.readyState !== ws.OPEN) return;
      const text = JSON.stringify(message);
      // a client that does not read its messages is dropped before it costs more than the send buffer
      if (ws.bufferedAmount > 0 && ws.bufferedAmount + text.length > limits.sendBufferBytes) {
        drop(`it did not read ${ws.bufferedAmount} queued bytes (limits.sendBufferBytes is ${limits.sendBufferBytes})`);
        return;
      }
      ws.send(text);
    });
    dispatchers.add(dispatcher);
    alive.set(ws, true);
    ws.on('pong', () => alive.set(ws, true));
    ws.on('message', (data, isBinary) => {
      pendingRequests++;
      if (pendingRequests >= limits.maxPendingRequests && !paused) {
        // the rest waits in the socket (TCP pushes back on the client) until requests in flight are answered
        paused = true;
        ws.pause();
      }
      const text = isBinary ? undefined : data.toString();
      dispatcher
        .handle(text ?? { binary: true })
        .catch((error: unknown) => log(`a request failed outside its handler: ${String(error)}`))
        .finally(() => {
          pendingRequests--;
          if (paused && pendingRequests < limits.maxPendingRequests) {
            paused = false;
            ws.resume();
          }
        });
    });
    const close = () => {
      endExclusion();
      dispatchers.delete(dispatcher);
      void dispatcher.close();
    };
    ws.on('close', close);
    ws.on('error', close);
  };

  // Every client answers a ping before the next one or is dropped (a peer gone without closing costs nothing for long).
  const pinger = setInterval(() => {
    for (const client of wss.clients) {
      if (alive.get(client) === false) {
        log(`dropped a WebSocket client: no answer to a ping within ${limits.pingIntervalMs} ms`);
        client.terminate();
        continue;
      }
      alive.set(client, false);
      client.ping();
    }
  }, limits.pingIntervalMs);
  pinger.unref();

  server.on('upgrade', onUpgrade);
  server.on('clientError', (_error, socket) => socket.destroy());

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, bindHost, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  port = address.port;
  listening = address.address;
  // the address to print: where the server really listens; for a wildcard, the loopback address it answers on too
  const shownHost = listening === '0.0.0.0' || listening === '::' ? '127.0.0.1' : listening;
  const urlHost = isIP(shownHost) === 6 ? `[${shownHost}]` : shownHost;

  let closing: Promise<void> | undefined;
  return {
    url: `http://${urlHost}:${port}/#token=${token}`,
    port,
    host: bindHost,
    address: listening,
    token,
    get connections() {
      return dispatchers.size;
    },
    close: () => {
      closing ??= (async () => {
        clearInterval(pinger);
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
