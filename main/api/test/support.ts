import '../../backends/mock.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { WebSocket } from 'ws';
import { InspectorClient, webSocketTransport } from '../../../shared/api/client.js';
import type { RuntimeOptions } from '../../runtime/runtime.js';
import { startBrowserHost, type BrowserHost } from '../../hosts/browser/server.js';
import { InspectorSession } from '../session.js';

export interface HostFixture {
  session: InspectorSession;
  host: BrowserHost;
  dir: string;
  wsUrl: string;
  connect(): Promise<{ client: InspectorClient; socket: WebSocket }>;
  close(): Promise<void>;
}

/** A browser host on a free loopback port over a fresh session, with a temporary settings file. */
export async function openHost(runtime: RuntimeOptions): Promise<HostFixture> {
  const dir = mkdtempSync(path.join(tmpdir(), 'platynui-api-'));
  const session = await InspectorSession.open({ runtime, settingsFile: path.join(dir, 'settings.json') });
  const host = await startBrowserHost({ session, port: 0, rendererDir: path.join(dir, 'renderer') });
  const wsUrl = `ws://127.0.0.1:${host.port}/api/ws?token=${host.token}`;
  const sockets: WebSocket[] = [];
  return {
    session,
    host,
    dir,
    wsUrl,
    async connect() {
      const socket = new WebSocket(wsUrl);
      sockets.push(socket);
      await new Promise<void>((resolve, reject) => {
        socket.once('open', () => resolve());
        socket.once('error', reject);
      });
      return { client: new InspectorClient(webSocketTransport(socket)), socket };
    },
    async close() {
      for (const socket of sockets) socket.close();
      await host.close();
      await session.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
