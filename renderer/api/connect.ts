/**
 * Picks the InspectorApi the page talks to: the Electron preload's transport when the shell provides one
 * (`window.platynui`), else a WebSocket to the browser host that served the page (`/api/ws`, with the
 * page's `#token=` as a WebSocket subprotocol), or with `?demo=N` an in-memory generated tree (no host needed).
 */
import { webSocketTransport, type Transport } from '../../shared/api/client.js';
import { ClientApi } from './client-api.js';
import { generateDemoTree } from './demo-tree.js';
import { MemoryApi } from './memory-api.js';
import type { InspectorApi } from './types.js';

declare global {
  interface Window {
    /** Set by the Electron preload (preload/preload.cts): the API transport over IPC, `send` and `onMessage`. */
    platynui?: Transport;
  }
}

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

export function connectApi(location: Location): { api: InspectorApi; onClose: (cb: () => void) => void } {
  const params = new URLSearchParams(location.search);
  const demo = params.get('demo');
  if (demo !== null) return { api: new MemoryApi(generateDemoTree(Number(demo) || 200)), onClose: () => undefined };
  if (window.platynui) {
    const transport = window.platynui;
    return {
      api: ClientApi.overTransport(transport),
      onClose: (cb) => void transport.onClose?.(() => cb()),
    };
  }
  const url = new URL('/api/ws', location.href);
  url.protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
  url.hash = '';
  const token = pageToken(location);
  const socket = new WebSocket(url.href, token ? ['platynui.v1', `platynui.token.${token}`] : ['platynui.v1']);
  return {
    api: ClientApi.overTransport(webSocketTransport(socket)),
    onClose: (cb) => socket.addEventListener('close', () => cb()),
  };
}
