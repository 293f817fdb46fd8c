// The preload (sandboxed, CommonJS): exposes exactly the API transport to the page, nothing else.
//   window.platynui.send(message)          one API request (see shared/api/schema.ts)
//   window.platynui.onMessage(callback)    responses and events; returns an unsubscribe function
// The renderer wraps it: new InspectorClient(window.platynui).
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a sandboxed preload is CommonJS
import electron = require('electron');

const CHANNEL = 'platynui:api';

electron.contextBridge.exposeInMainWorld('platynui', {
  send(message: unknown): void {
    electron.ipcRenderer.send(CHANNEL, message);
  },
  onMessage(callback: (message: unknown) => void): () => void {
    const listener = (_event: unknown, message: unknown) => callback(message);
    electron.ipcRenderer.on(CHANNEL, listener);
    return () => {
      electron.ipcRenderer.removeListener(CHANNEL, listener);
    };
  },
});
