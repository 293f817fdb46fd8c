import { InspectorError } from '../../../shared/model/errors.js';
import { DbusClient } from '../../dbus/dbus-client.js';

/**
 * Where the accessibility bus is and whether accessibility is switched on: `AT_SPI_BUS_ADDRESS` if set, else
 * `org.a11y.Bus.GetAddress` on the session bus; `org.a11y.Status.IsEnabled` tells whether applications register.
 * The CLI's `info` reports this and offers to switch accessibility on.
 */

const A11Y_BUS_NAME = 'org.a11y.Bus';
const A11Y_BUS_PATH = '/org/a11y/bus';

export const NOT_REGISTERED_HINT =
  'Applications started while accessibility was off do not register with the accessibility bus: restart them.';

export interface AccessibilityStatus {
  /** True when org.a11y.Status.IsEnabled (or ScreenReaderEnabled) is set, or the bus address was given directly. */
  enabled: boolean;
  /** The accessibility bus address, when it could be found. */
  busAddress: string | undefined;
  /** Where the address came from. */
  source: 'AT_SPI_BUS_ADDRESS' | 'session-bus' | 'none';
  screenReaderEnabled: boolean | undefined;
  /** A sentence a person understands, including what to do when accessibility is off. */
  message: string;
}

export type Environment = { readonly [name: string]: string | undefined };

async function withSessionBus<T>(
  env: Environment,
  timeoutMs: number,
  use: (bus: DbusClient) => Promise<T>,
): Promise<T> {
  const address = env.DBUS_SESSION_BUS_ADDRESS;
  if (!address) {
    throw new InspectorError(
      'provider-unavailable',
      'no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is not set), so the accessibility bus cannot be found',
    );
  }
  const bus = await DbusClient.connect(address, { callTimeoutMs: timeoutMs });
  try {
    return await use(bus);
  } finally {
    bus.close();
  }
}

async function readBool(bus: DbusClient, name: string): Promise<boolean | undefined> {
  try {
    const value = await bus.getProperty(A11Y_BUS_NAME, A11Y_BUS_PATH, 'org.a11y.Status', name);
    return typeof value === 'boolean' ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Reports whether accessibility is on and where the accessibility bus is; never throws for "off". */
export async function getAccessibilityStatus(
  env: Environment = process.env,
  timeoutMs = 1000,
): Promise<AccessibilityStatus> {
  const direct = env.AT_SPI_BUS_ADDRESS;
  if (direct) {
    return {
      enabled: true,
      busAddress: direct,
      source: 'AT_SPI_BUS_ADDRESS',
      screenReaderEnabled: undefined,
      message: `accessibility bus given by AT_SPI_BUS_ADDRESS: ${direct}`,
    };
  }
  try {
    return await withSessionBus(env, timeoutMs, async (bus) => {
      const [enabled, screenReader] = await Promise.all([
        readBool(bus, 'IsEnabled'),
        readBool(bus, 'ScreenReaderEnabled'),
      ]);
      let busAddress: string | undefined;
      try {
        const [address] = await bus.call({
          destination: A11Y_BUS_NAME,
          path: A11Y_BUS_PATH,
          interface: 'org.a11y.Bus',
          member: 'GetAddress',
        });
        busAddress = typeof address === 'string' && address ? address : undefined;
      } catch {
        busAddress = undefined;
      }
      const on = enabled === true || screenReader === true;
      let message: string;
      if (!busAddress) {
        message =
          'the accessibility bus (org.a11y.Bus) is not available on the session bus; install at-spi2-core and ' +
          'log in to a desktop session';
      } else if (on) {
        message = `accessibility is enabled; accessibility bus at ${busAddress}`;
      } else {
        message =
          'accessibility is switched off (org.a11y.Status.IsEnabled is false): applications do not register. ' +
          `Switch it on with 'platynui-inspector enable-accessibility' (or 'info --enable-accessibility'). ${NOT_REGISTERED_HINT}`;
      }
      return {
        enabled: on,
        busAddress,
        source: busAddress ? ('session-bus' as const) : ('none' as const),
        screenReaderEnabled: screenReader,
        message,
      };
    });
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    return { enabled: false, busAddress: undefined, source: 'none', screenReaderEnabled: undefined, message: text };
  }
}

/**
 * Switches accessibility on (org.a11y.Status.IsEnabled = true) and returns the new status; its message reminds
 * that applications started while accessibility was off must be restarted to appear.
 */
export async function enableAccessibility(
  env: Environment = process.env,
  timeoutMs = 1000,
): Promise<AccessibilityStatus> {
  await withSessionBus(env, timeoutMs, async (bus) => {
    try {
      await bus.setProperty(A11Y_BUS_NAME, A11Y_BUS_PATH, 'org.a11y.Status', 'IsEnabled', 'b', true);
    } catch (error) {
      const text = error instanceof Error ? error.message : String(error);
      throw new InspectorError('provider-unavailable', `could not switch accessibility on: ${text}`);
    }
  });
  const status = await getAccessibilityStatus(env, timeoutMs);
  return {
    ...status,
    message: status.enabled
      ? `accessibility switched on; accessibility bus at ${status.busAddress ?? 'unknown'}. ${NOT_REGISTERED_HINT}`
      : status.message,
  };
}

/** The bus address to use, or an InspectorError('accessibility-disabled' | 'provider-unavailable') saying why not. */
export async function resolveAccessibilityBus(env: Environment = process.env, timeoutMs = 1000): Promise<string> {
  const status = await getAccessibilityStatus(env, timeoutMs);
  if (!status.busAddress) throw new InspectorError('provider-unavailable', status.message);
  if (!status.enabled) throw new InspectorError('accessibility-disabled', status.message);
  return status.busAddress;
}
