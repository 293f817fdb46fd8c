/**
 * Picks the InspectorApi the page talks to: the Electron preload's transport when the shell provides one
 * (`window.platynui`), else a WebSocket to the browser host that served the page (`/api/ws`, with the
 * page's `?token=`), or with `?demo=N` an in-memory generated tree (no host needed).
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
  const token = params.get('token');
  if (token) url.searchParams.set('token', token);
  const socket = new WebSocket(url.href);
  return {
    api: ClientApi.overTransport(webSocketTransport(socket)),
    onClose: (cb) => socket.addEventListener('close', () => cb()),
  };
}
