import '../../backends/mock.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { WebSocket } from 'ws';
import { InspectorClient, webSocketTransport } from '../../../shared/api/client.js';
import { schemaCheck } from '../../../shared/api/schema-check.js';
import type { RuntimeOptions } from '../../runtime/runtime.js';
import type { HostLimits } from '../limits.js';
import { startBrowserHost, type BrowserHost } from '../../hosts/browser/server.js';
import { HostContext } from '../host-context.js';

export interface HostFixture {
  context: HostContext;
  host: BrowserHost;
  dir: string;
  wsUrl: string;
  connect(): Promise<{ client: InspectorClient; socket: WebSocket }>;
  close(): Promise<void>;
}

/** A browser host on a free loopback port over a fresh context, with a temporary settings file. */
export async function openHost(
  runtime: RuntimeOptions,
  options: { limits?: Partial<HostLimits>; log?: (message: string) => void; dir?: string } = {},
): Promise<HostFixture> {
  const dir = options.dir ?? mkdtempSync(path.join(tmpdir(), 'platynui-api-'));
  const context = await HostContext.open({
    runtime,
    settingsFile: path.join(dir, 'settings.json'),
    ...(options.limits ? { limits: options.limits } : {}),
    warn: options.log ?? (() => undefined),
  });
  const host = await startBrowserHost({
    context,
    port: 0,
    rendererDir: path.join(dir, 'renderer'),
    ...(options.log ? { log: options.log } : {}),
  });
  const wsUrl = `ws://127.0.0.1:${host.port}/api/ws?token=${host.token}`;
  const sockets: WebSocket[] = [];
  return {
    context,
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
      return { client: new InspectorClient(webSocketTransport(socket), { messageCheck: schemaCheck }), socket };
    },
    async close() {
      for (const socket of sockets) socket.close();
      await host.close();
      await context.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
