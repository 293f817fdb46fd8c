/**
 * The page's connection to its host, as the protocol client (shared/api/client.ts): the Electron preload's transport
 * when the shell provides one (`window.platynui`), else a WebSocket to the browser host that served the page
 * (`/api/ws`, with the page's `?token=`).
 */
import { InspectorClient, webSocketTransport, type Transport } from '../shared/api/client.js';

declare global {
  interface Window {
    /** Set by the Electron preload (preload/preload.cts): the API transport over IPC, `send` and `onMessage`. */
    platynui?: Transport;
  }
}

const REQUEST_TIMEOUT_MS = 60_000;

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
  const token = new URLSearchParams(location.search).get('token');
  if (token) url.searchParams.set('token', token);
  const socket = new WebSocket(url.href);
  return {
    client: new InspectorClient(webSocketTransport(socket), { requestTimeoutMs: REQUEST_TIMEOUT_MS }),
    onClose: (cb) => socket.addEventListener('close', () => cb()),
  };
}
