// Small, dependable access to the AT-SPI registry for tests: which applications are registered, with their PID, name
// and top-level children. Low-level dbus-next calls with hard-coded signatures, no introspection, no usocket.
import { Message, sessionBus, type MessageBus } from 'dbus-next';
import { parseDbusAddress } from '../../main/dbus/address.js';
import type { CallSpec as DbusCallSpec } from '../../main/dbus/dbus-client.js';

export const REGISTRY_BUS_NAME = 'org.a11y.atspi.Registry';
export const ROOT_PATH = '/org/a11y/atspi/accessible/root';
const ACCESSIBLE = 'org.a11y.atspi.Accessible';

/**
 * The first entry of an address in the form dbus-next opens without its optional native `usocket` module: a
 * `unix:path=` or `unix:abstract=` address becomes `unix:socket=<path>` (an abstract name gets a leading NUL).
 */
export function toDbusNextAddress(address: string): string | undefined {
  for (const { transport, params } of parseDbusAddress(address)) {
    if (transport === 'unix') {
      const path = params.get('path') ?? params.get('socket');
      if (path) return `unix:socket=${path}`;
      const abstract = params.get('abstract');
      if (abstract) return `unix:socket=\u0000${abstract}`;
    } else if (transport === 'tcp') {
      const host = params.get('host') ?? 'localhost';
      const port = params.get('port');
      if (port) return `tcp:host=${host},port=${port}`;
    }
  }
  return undefined;
}

/** Converts a D-Bus address to one dbus-next connects to without its optional native `usocket` module. */
export function dbusNextAddress(address: string): string {
  const converted = toDbusNextAddress(address);
  if (!converted) throw new Error(`Unsupported D-Bus address: ${address}`);
  return converted;
}

export function connectBus(address: string): MessageBus {
  const bus = sessionBus({ busAddress: dbusNextAddress(address) });
  bus.on('error', () => {
    // Connection errors surface as rejected calls.
  });
  return bus;
}

export async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** A method call as the inspector's own D-Bus client describes it (its per-call timeout is this helper's argument). */
export type CallSpec = Omit<DbusCallSpec, 'timeoutMs'>;

export async function call(bus: MessageBus, spec: CallSpec, timeoutMs = 2000): Promise<unknown[]> {
  const reply = await withTimeout(
    bus.call(new Message(spec)),
    timeoutMs,
    `D-Bus ${spec.destination} ${spec.interface}.${spec.member}`,
  );
  return (reply?.body ?? []) as unknown[];
}

/** The address of the accessibility bus: AT_SPI_BUS_ADDRESS, else org.a11y.Bus.GetAddress on the session bus. */
export async function a11yBusAddress(env: NodeJS.ProcessEnv): Promise<string> {
  if (env.AT_SPI_BUS_ADDRESS) return env.AT_SPI_BUS_ADDRESS;
  const address = env.DBUS_SESSION_BUS_ADDRESS;
  if (!address) throw new Error('DBUS_SESSION_BUS_ADDRESS is not set: run inside the desktop session (npm test)');
  const bus = connectBus(address);
  try {
    const [a] = await call(bus, {
      destination: 'org.a11y.Bus',
      path: '/org/a11y/bus',
      interface: 'org.a11y.Bus',
      member: 'GetAddress',
    });
    if (typeof a !== 'string' || !a) throw new Error('org.a11y.Bus.GetAddress returned no address');
    return a;
  } finally {
    bus.disconnect();
  }
}

/** A connection to the accessibility bus of the session described by `env`. Disconnect it when done. */
export async function connectA11yBus(env: NodeJS.ProcessEnv): Promise<MessageBus> {
  return connectBus(await a11yBusAddress(env));
}

export interface ObjectRef {
  busName: string;
  path: string;
}

export interface RegisteredApp extends ObjectRef {
  pid: number;
  name: string;
  childCount: number;
}

export async function getChildren(bus: MessageBus, ref: ObjectRef, timeoutMs = 2000): Promise<ObjectRef[]> {
  const [children] = await call(
    bus,
    { destination: ref.busName, path: ref.path, interface: ACCESSIBLE, member: 'GetChildren' },
    timeoutMs,
  );
  return ((children ?? []) as [string, string][]).map(([busName, path]) => ({ busName, path }));
}

export async function getProperty(
  bus: MessageBus,
  ref: ObjectRef,
  iface: string,
  name: string,
  timeoutMs = 2000,
): Promise<unknown> {
  const [v] = await call(
    bus,
    {
      destination: ref.busName,
      path: ref.path,
      interface: 'org.freedesktop.DBus.Properties',
      member: 'Get',
      signature: 'ss',
      body: [iface, name],
    },
    timeoutMs,
  );
  return (v as { value?: unknown } | undefined)?.value;
}

export async function getName(bus: MessageBus, ref: ObjectRef, timeoutMs = 2000): Promise<string> {
  return String((await getProperty(bus, ref, ACCESSIBLE, 'Name', timeoutMs)) ?? '');
}

export async function connectionPid(bus: MessageBus, busName: string, timeoutMs = 2000): Promise<number> {
  const [pid] = await call(
    bus,
    {
      destination: 'org.freedesktop.DBus',
      path: '/org/freedesktop/DBus',
      interface: 'org.freedesktop.DBus',
      member: 'GetConnectionUnixProcessID',
      signature: 's',
      body: [busName],
    },
    timeoutMs,
  );
  return Number(pid);
}

/**
 * The applications registered on the AT-SPI registry, with PID, name and child count. Applications that do not
 * answer within `timeoutMs` are left out (a hung application must not stall a test helper).
 */
export async function registeredApplications(bus: MessageBus, timeoutMs = 2000): Promise<RegisteredApp[]> {
  const apps = await getChildren(bus, { busName: REGISTRY_BUS_NAME, path: ROOT_PATH }, timeoutMs);
  const settled = await Promise.allSettled(
    apps.map(async (ref) => {
      const [pid, name, childCount] = await Promise.all([
        connectionPid(bus, ref.busName, timeoutMs),
        getName(bus, ref, timeoutMs),
        getProperty(bus, ref, ACCESSIBLE, 'ChildCount', timeoutMs).then(Number),
      ]);
      return { ...ref, pid, name, childCount };
    }),
  );
  return settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
}
