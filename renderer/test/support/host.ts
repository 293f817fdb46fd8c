/**
 * The real host for renderer tests: a HostContext on the mock provider and the mock platform, and the real
 * dispatcher behind an in-process transport that carries every message as JSON text, as a WebSocket would. Tests
 * drive the tree through the mock provider's own actions (focus, close, ...) and its events.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { clearInterval, setInterval } from 'node:timers';
import { InspectorClient, type Transport } from '../../../shared/api/client.js';
import { schemaCheck } from '../../../shared/api/schema-check.js';
import '../../../main/backends/mock.js';
import { InspectorDispatcher } from '../../../main/api/dispatcher.js';
import { HostContext } from '../../../main/api/host-context.js';
import type { MockProvider } from '../../../main/providers/mock/mock-provider.js';

export interface MockHost {
  context: HostContext;
  /** The mock provider behind the context (to change the tree as an application would). */
  provider: MockProvider;
  settingsFile: string;
  /** A new connection: its own dispatcher, as each browser tab has. */
  connect(): InspectorClient;
  close(): Promise<void>;
}

/** Opens a host; `settingsFile` lets a test restart the host over the settings a previous one wrote. */
export async function openMockHost(options: { settingsFile?: string; mockFile?: string } = {}): Promise<MockHost> {
  const dir = mkdtempSync(path.join(tmpdir(), 'platynui-renderer-'));
  const settingsFile = options.settingsFile ?? path.join(dir, 'settings.json');
  // The XPath workers are unref'd (a CLI process ends when its work does), and an in-process host has no socket: while
  // a test waits for a worker's answer nothing else may keep Node's event loop alive, and the test runner takes the
  // empty loop for a hung test ("Promise resolution is still pending but the event loop has already resolved"). Also
  // while the host opens (opening over a snapshot file waits for a worker too) and until it has closed.
  const keepAlive = setInterval(() => undefined, 60_000);
  let context: HostContext;
  try {
    context = await HostContext.open({
      runtime: {
        providers: ['mock'],
        platform: 'mock',
        ...(options.mockFile ? { backendOptions: { mock: { file: options.mockFile } } } : {}),
      },
      settingsFile,
    });
  } catch (error) {
    clearInterval(keepAlive);
    throw error;
  }
  const closeContext = context.close.bind(context);
  // Also when a test closes only the context (to reopen a host over the same settings file).
  context.close = () => closeContext().finally(() => clearInterval(keepAlive));
  const dispatchers: InspectorDispatcher[] = [];
  const clients: InspectorClient[] = [];
  return {
    context,
    provider: context.runtime.providers[0] as MockProvider,
    settingsFile,
    connect() {
      let deliver: ((message: unknown) => void) | undefined;
      const dispatcher = new InspectorDispatcher(context, (message) => {
        const text = JSON.stringify(message);
        setImmediate(() => deliver?.(text));
      });
      dispatchers.push(dispatcher);
      const transport: Transport = {
        send(message) {
          const text = JSON.stringify(message);
          setImmediate(() => void dispatcher.handle(text));
        },
        onMessage(callback) {
          deliver = callback;
          return () => {
            deliver = undefined;
          };
        },
        close: () => void dispatcher.close(),
      };
      const client = new InspectorClient(transport, { messageCheck: schemaCheck });
      clients.push(client);
      return client;
    },
    async close() {
      for (const client of clients) client.close();
      await Promise.all(dispatchers.map((dispatcher) => dispatcher.close()));
      await context.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A host and one connected client for a test; both close when the test ends. */
export async function connectedHost(
  t: { after(fn: () => void | Promise<void>): void },
  options: Parameters<typeof openMockHost>[0] = {},
): Promise<{ host: MockHost; client: InspectorClient }> {
  const host = await openMockHost(options);
  t.after(() => host.close());
  return { host, client: host.connect() };
}

/** Writes a mock desktop (snapshot XML) with one application whose window holds a table of `rows` rows. */
export function writeTableTree(dir: string, rows: number): string {
  const file = path.join(dir, `table-${rows}.xml`);
  const cells = Array.from({ length: rows }, (_, i) => `<Row Name="Row ${i}" RuntimeId="mock:row-${i}"/>`).join('');
  writeFileSync(
    file,
    `<?xml version="1.0" encoding="UTF-8"?>
<snapshot xmlns="urn:platynui:control" xmlns:app="urn:platynui:app">
  <app:Application Name="Big" RuntimeId="mock:app-big" ProcessId="7"><Window Name="Big" RuntimeId="mock:window-big">` +
      `<Table Name="Rows" RuntimeId="mock:table">${cells}</Table></Window></app:Application>
</snapshot>
`,
  );
  return file;
}
