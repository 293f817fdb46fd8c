/**
 * The page's connection to its host, as the protocol client (shared/api/client.ts): the Electron preload's transport
 * when the shell provides one (`window.platynui`), else a WebSocket to the browser host that served the page
 * (`/api/ws`, with the page's `#token=` sent as a WebSocket subprotocol).
 */
import { InspectorClient, webSocketTransport, type Transport } from '../shared/api/client.js';

declare global {
  interface Window {
    /** Set by the Electron preload (preload/preload.cts): the API transport over IPC, `send` and `onMessage`. */
    platynui?: Transport;
  }
}

const REQUEST_TIMEOUT_MS = 60_000;
const TOKEN_KEY = 'platynui-inspector.token';

/**
 * The API token: from the address's fragment (`#token=`, which no request carries), kept in sessionStorage so a
 * reload of this tab finds it even if the fragment is gone; never in a cookie.
 */
function pageToken(location: Location): string | undefined {
  const fromHash = new URLSearchParams(location.hash.replace(/^#/, '')).get('token');
  try {
    if (fromHash) sessionStorage.setItem(TOKEN_KEY, fromHash);
    return fromHash ?? sessionStorage.getItem(TOKEN_KEY) ?? undefined;
  } catch {
    return fromHash ?? undefined;
  }
}

/**
 * From its first requests on, the client checks the envelope of what the host sends; the schema check (zod, most of
 * the validator's weight) is loaded once the first rows are on screen and checks every message after it.
 */
export function checkAgainstSchema(client: InspectorClient): void {
  void import('../shared/api/schema-check.js').then(({ schemaCheck }) => client.checkWith(schemaCheck));
}

export function connectClient(location: Location): { client: InspectorClient; onClose: (cb: () => void) => void } {
  if (window.platynui) {
    const transport = window.platynui;
    return {
      client: new InspectorClient(transport, { requestTimeoutMs: REQUEST_TIMEOUT_MS }),
      onClose: (cb) => void transport.onClose?.(() => cb()),
    };
  }
  const url = new URL('/api/ws', location.href);
  url.protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
  url.hash = '';
  const token = pageToken(location);
  const socket = new WebSocket(url.href, token ? ['platynui.v1', `platynui.token.${token}`] : ['platynui.v1']);
  return {
    client: new InspectorClient(webSocketTransport(socket), { requestTimeoutMs: REQUEST_TIMEOUT_MS }),
    onClose: (cb) => socket.addEventListener('close', () => cb()),
  };
}
