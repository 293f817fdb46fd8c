import { InspectorDispatcher } from '../api/dispatcher.js';
import { HostContext } from '../api/host-context.js';
import type { RuntimeOptions } from '../runtime/runtime.js';

/**
 * The runtime in Electron's utility process (a separate process, so D-Bus calls and XPath never block the window).
 * The main process relays the renderer's API messages here and the answers back:
 *
 *   main -> host  { type: 'open', connection } | { type: 'message', connection, message } | { type: 'close', connection }
 *                 { type: 'shortcut', connection } (the global pick shortcut) | { type: 'shutdown' }
 *   host -> main  { type: 'ready' } | { type: 'failed', error } | { type: 'message', connection, message }
 *                 { type: 'highlight', request: { rects, durationMs? } | null } (only without a native highlight)
 *
 * No electron import: the port is the utility process's `process.parentPort`, given here as a plain interface.
 */

export interface HostPort {
  postMessage(message: unknown): void;
  on(event: 'message', listener: (event: { data: unknown }) => void): void;
}

export type HostCommand =
  | { type: 'open'; connection: number }
  | { type: 'message'; connection: number; message: unknown }
  | { type: 'close'; connection: number }
  | { type: 'shortcut'; connection: number }
  | { type: 'shutdown' };

export async function runRuntimeHost(
  port: HostPort,
  options: { runtime: RuntimeOptions; settingsFile?: string },
): Promise<{ stopped: Promise<void> }> {
  let context: HostContext;
  try {
    context = await HostContext.open({ ...options, warmTree: true });
  } catch (error) {
    port.postMessage({ type: 'failed', error: error instanceof Error ? error.message : String(error) });
    throw error;
  }
  if (!context.runtime.platform?.highlight) {
    // no native highlight here (not X11): the main process draws overlay windows
    context.highlightFallback = (request) => port.postMessage({ type: 'highlight', request: request ?? null });
  }
  const dispatchers = new Map<number, InspectorDispatcher>();
  let nextShortcutId = 1_000_000_000;
  let resolveStopped: () => void = () => undefined;
  const stopped = new Promise<void>((resolve) => (resolveStopped = resolve));
  const open = (connection: number) => {
    let dispatcher = dispatchers.get(connection);
    if (!dispatcher) {
      dispatcher = new InspectorDispatcher(context, (message) =>
        port.postMessage({ type: 'message', connection, message }),
      );
      dispatchers.set(connection, dispatcher);
    }
    return dispatcher;
  };
  port.on('message', ({ data }) => {
    const command = data as HostCommand;
    switch (command?.type) {
      case 'open':
        open(command.connection);
        break;
      case 'message':
        void open(command.connection).handle(command.message);
        break;
      case 'close':
        void dispatchers.get(command.connection)?.close();
        dispatchers.delete(command.connection);
        break;
      case 'shortcut': {
        // the answer carries an id the renderer never used, so its client ignores it; the events are what counts
        const method = context.picking.active ? 'pick.select' : 'pick.start';
        void open(command.connection).handle({ kind: 'request', id: nextShortcutId++, method, params: {} });
        break;
      }
      case 'shutdown':
        void (async () => {
          await Promise.allSettled([...dispatchers.values()].map((dispatcher) => dispatcher.close()));
          await context.close();
          resolveStopped();
        })();
        break;
    }
  });
  port.postMessage({ type: 'ready' });
  return { stopped };
}
