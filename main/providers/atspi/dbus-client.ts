import dbusNext from 'dbus-next';
import { InspectorError } from '../../../shared/model/errors.js';
import { toDbusNextAddress } from './bus-address.js';
import { marshalMethodCall } from './fast-marshal.js';
import { useFastReader } from './fast-unmarshal.js';

/**
 * A thin, fast layer over dbus-next: low-level `bus.call` with hard-coded signatures (no introspection), a timeout on
 * every call, and per-destination flow control so that thousands of pipelined calls neither flood one application
 * nor let a hung application stall calls to the others.
 */

const { Message, sessionBus } = dbusNext;
type DbusMessage = InstanceType<typeof Message>;
type DbusBus = ReturnType<typeof sessionBus>;

export const DEFAULT_CALL_TIMEOUT_MS = 1000;
/** How long a destination that timed out is treated as hung (calls fail fast) before it is tried again. */
const HUNG_BACKOFF_MS = 3000;
const DEFAULT_MAX_IN_FLIGHT = 96;
/**
 * A call whose timeout expires while its application is still sending us other messages (replies, signals) is
 * busy, not hung: its deadline is extended, up to this many times the timeout. Silence for a whole timeout period
 * is what "not responding" means.
 */
const BUSY_EXTENSION_FACTOR = 10;
/** How many timeouts a silent but running application may take before it counts as not responding. */
const SILENT_GRACE_FACTOR = 3;

export interface CallSpec {
  destination: string;
  path: string;
  interface: string;
  member: string;
  signature?: string;
  body?: unknown[];
  /** Overrides the client's per-call timeout (bulk calls that return a whole tree get longer). */
  timeoutMs?: number;
}

export interface SignalMessage {
  sender: string;
  path: string;
  interface: string;
  member: string;
  signature: string;
  body: unknown[];
}

interface Pending {
  spec: CallSpec;
  resolve: (body: unknown[]) => void;
  reject: (error: unknown) => void;
}

interface InFlight {
  destination: string;
  state: DestinationState;
  pending: Pending;
  timeoutMs: number;
  sentAt: number;
  deadline: number;
  long: boolean;
}

interface BusInternals {
  _methodReturnHandlers: Record<number, (reply: DbusMessage) => void>;
  _connection: {
    message(msg: DbusMessage): void;
    stream?: { cork?(): void; uncork(): void; write?(data: Buffer): void; writable?: boolean };
  };
}

/** How often pending calls are checked against their deadlines. */
const SWEEP_INTERVAL_MS = 50;
const SLOW_MARSHAL = process.env.PLATYNUI_ATSPI_SLOW_MARSHAL === '1';
/** dbus-next's own message reader instead of fast-unmarshal.ts (for comparison). */
const SLOW_UNMARSHAL = process.env.PLATYNUI_ATSPI_SLOW_UNMARSHAL === '1';

interface DestinationState {
  inFlight: number;
  /** Calls in flight with a longer timeout than the default (bulk calls): calls behind them wait for them. */
  longCalls: number;
  queue: Pending[];
  hungUntil: number;
}

/** D-Bus error names that mean the object or its application is gone. */
const GONE_ERRORS = new Set([
  'org.freedesktop.DBus.Error.ServiceUnknown',
  'org.freedesktop.DBus.Error.NameHasNoOwner',
  'org.freedesktop.DBus.Error.NoReply',
  'org.freedesktop.DBus.Error.UnknownObject',
  'org.freedesktop.DBus.Error.Disconnected',
]);

export function isGoneError(error: unknown): boolean {
  return error instanceof InspectorError && error.code === 'stale-node';
}

export function isNotRespondingError(error: unknown): boolean {
  return error instanceof InspectorError && error.code === 'not-responding';
}

export class DbusClient {
  private readonly destinations = new Map<string, DestinationState>();
  private readonly signalListeners = new Set<(signal: SignalMessage) => void>();
  /** When each peer (by unique or well-known name) last sent us anything. */
  private readonly lastHeard = new Map<string, number>();
  private closed = false;
  private corked = false;
  private readonly inFlight = new Map<number, InFlight>();
  private sweepTimer: ReturnType<typeof setInterval> | undefined;
  /** Number of method calls sent, for benchmarks and tests. */
  callCount = 0;
  /** Tells whether the process behind a destination is stopped (set by the provider, which knows the PIDs). */
  isStopped: (destination: string) => boolean = () => true;
  /** Called once when the connection is lost (not when closed on purpose). */
  onClose: ((reason: string) => void) | undefined;

  private constructor(
    private readonly bus: DbusBus,
    readonly address: string,
    readonly callTimeoutMs: number,
    private readonly maxInFlight: number,
  ) {
    bus.on('message', (msg: DbusMessage) => {
      if (msg.sender) this.lastHeard.set(msg.sender, Date.now());
      if (msg.type !== dbusNext.MessageType.SIGNAL || this.signalListeners.size === 0) return;
      const signal: SignalMessage = {
        sender: msg.sender,
        path: msg.path,
        interface: msg.interface,
        member: msg.member,
        signature: msg.signature,
        body: msg.body,
      };
      for (const listener of this.signalListeners) {
        try {
          listener(signal);
        } catch {
          // A listener's failure must not break the connection's message loop.
        }
      }
    });
    const lost = () => {
      if (!this.closed) this.onClose?.('the accessibility bus connection was lost');
      this.closed = true;
      for (const [serial, call] of this.inFlight) {
        delete this.internals._methodReturnHandlers[serial];
        call.pending.reject(new InspectorError('provider-unavailable', 'the accessibility bus connection was lost'));
      }
      this.inFlight.clear();
    };
    (bus as unknown as { _connection?: { on?(event: string, listener: () => void): void } })._connection?.on?.(
      'end',
      lost,
    );
    bus.on('error', () => {
      lost();
    });
  }

  /** Connects to a bus address (`unix:path=`, `unix:abstract=` ...), never through the optional usocket module. */
  static async connect(
    address: string,
    options: { callTimeoutMs?: number; maxInFlight?: number } = {},
  ): Promise<DbusClient> {
    const usable = toDbusNextAddress(address);
    if (!usable) throw new InspectorError('provider-unavailable', `cannot connect to D-Bus address "${address}"`);
    const timeoutMs = options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
    const bus = sessionBus({ busAddress: usable });
    if (!SLOW_UNMARSHAL) useFastReader(bus);
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        cleanup();
        try {
          bus.disconnect();
        } catch {
          // already gone
        }
        reject(new InspectorError('timeout', `D-Bus connection to ${address} did not complete in ${timeoutMs * 3} ms`));
      }, timeoutMs * 3);
      const onConnect = () => {
        cleanup();
        resolve();
      };
      const onError = (error: unknown) => {
        cleanup();
        const message = error instanceof Error ? error.message : String(error);
        reject(new InspectorError('provider-unavailable', `cannot connect to D-Bus at ${address}: ${message}`));
      };
      const cleanup = () => {
        clearTimeout(timer);
        bus.removeListener('connect', onConnect);
        bus.removeListener('error', onError);
      };
      bus.on('connect', onConnect);
      bus.on('error', onError);
    });
    return new DbusClient(bus, address, timeoutMs, options.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT);
  }

  /** This connection's unique name on the bus (`:1.42`). */
  get uniqueName(): string {
    return (this.bus as unknown as { name: string | null }).name ?? '';
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** True while calls to this destination fail fast because it recently timed out. */
  isHung(destination: string): boolean {
    const state = this.destinations.get(destination);
    return state !== undefined && state.hungUntil > Date.now();
  }

  /** Calls a method and resolves with the reply body; rejects with an InspectorError (never with the arguments). */
  call(spec: CallSpec): Promise<unknown[]> {
    return new Promise<unknown[]>((resolve, reject) => {
      if (this.closed) {
        reject(new InspectorError('provider-unavailable', 'the accessibility bus connection is closed'));
        return;
      }
      const state = this.stateOf(spec.destination);
      if (state.hungUntil > Date.now()) {
        reject(this.notResponding(spec, 0));
        return;
      }
      state.queue.push({ spec, resolve, reject });
      this.pump(spec.destination, state);
    });
  }

  /** Reads one D-Bus property (`org.freedesktop.DBus.Properties.Get`) and unwraps the variant. */
  async getProperty(destination: string, path: string, iface: string, name: string): Promise<unknown> {
    const [variant] = await this.call({
      destination,
      path,
      interface: 'org.freedesktop.DBus.Properties',
      member: 'Get',
      signature: 'ss',
      body: [iface, name],
    });
    return (variant as { value: unknown } | undefined)?.value;
  }

  async setProperty(
    destination: string,
    path: string,
    iface: string,
    name: string,
    signature: string,
    value: unknown,
  ): Promise<void> {
    await this.call({
      destination,
      path,
      interface: 'org.freedesktop.DBus.Properties',
      member: 'Set',
      signature: 'ssv',
      body: [iface, name, new dbusNext.Variant(signature, value)],
    });
  }

  onSignal(listener: (signal: SignalMessage) => void): () => void {
    this.signalListeners.add(listener);
    return () => this.signalListeners.delete(listener);
  }

  async addMatch(rule: string): Promise<void> {
    await this.call({
      destination: 'org.freedesktop.DBus',
      path: '/org/freedesktop/DBus',
      interface: 'org.freedesktop.DBus',
      member: 'AddMatch',
      signature: 's',
      body: [rule],
    });
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.signalListeners.clear();
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.sweepTimer = undefined;
    for (const [serial, call] of this.inFlight) {
      delete this.internals._methodReturnHandlers[serial];
      call.pending.reject(new InspectorError('cancelled', 'the accessibility bus connection was closed'));
    }
    this.inFlight.clear();
    for (const [, state] of this.destinations) {
      for (const pending of state.queue.splice(0)) {
        pending.reject(new InspectorError('cancelled', 'the accessibility bus connection was closed'));
      }
    }
    try {
      this.bus.disconnect();
    } catch {
      // already disconnected
    }
  }

  private stateOf(destination: string): DestinationState {
    let state = this.destinations.get(destination);
    if (!state) {
      state = { inFlight: 0, longCalls: 0, queue: [], hungUntil: 0 };
      this.destinations.set(destination, state);
    }
    return state;
  }

  private pump(destination: string, state: DestinationState): void {
    while (state.inFlight < this.maxInFlight && state.queue.length > 0) {
      const pending = state.queue.shift() as Pending;
      if (state.hungUntil > Date.now()) {
        pending.reject(this.notResponding(pending.spec, 0));
        continue;
      }
      this.send(destination, state, pending);
    }
  }

  private get internals(): BusInternals {
    return this.bus as unknown as BusInternals;
  }

  /** Batches the writes of one tick into few syscalls: thousands of pipelined calls cost little more than one. */
  private corkForThisTick(): void {
    if (this.corked) return;
    const stream = this.internals._connection.stream;
    if (!stream?.cork) return;
    this.corked = true;
    stream.cork();
    process.nextTick(() => {
      this.corked = false;
      stream.uncork();
    });
  }

  private send(destination: string, state: DestinationState, pending: Pending): void {
    const { spec } = pending;
    const timeoutMs = spec.timeoutMs ?? this.callTimeoutMs;
    const serial = this.bus.newSerial();
    state.inFlight++;
    this.callCount++;
    const now = Date.now();
    const long = timeoutMs > this.callTimeoutMs;
    if (long) state.longCalls++;
    const inFlight: InFlight = {
      destination,
      state,
      pending,
      timeoutMs,
      sentAt: now,
      deadline: now + timeoutMs,
      long,
    };
    this.inFlight.set(serial, inFlight);
    this.ensureSweep();
    // Low-level reply handler (what bus.call does, without a promise per call).
    this.internals._methodReturnHandlers[serial] = (reply: DbusMessage) => {
      this.lastHeard.set(destination, Date.now());
      if (!this.inFlight.delete(serial)) return;
      state.inFlight--;
      if (long) state.longCalls--;
      if (reply.type === dbusNext.MessageType.ERROR) {
        const error = new dbusNext.DBusError(reply.errorName, String(reply.body?.[0] ?? ''), reply);
        pending.reject(toCallError(spec, error));
      } else {
        if (state.hungUntil !== 0) state.hungUntil = 0;
        pending.resolve(reply.body ?? []);
      }
      // Refill in batches: once half the window is free rather than one call per reply, so thousands of pipelined
      // calls go out in few writes (one write per reply cost more than the calls themselves).
      if (state.inFlight <= this.maxInFlight >> 1) this.pump(destination, state);
    };
    try {
      this.corkForThisTick();
      const connection = this.internals._connection;
      const wire = connection.stream?.write && !SLOW_MARSHAL ? marshalMethodCall({ serial, ...spec }) : undefined;
      if (wire) {
        (connection.stream as { write(data: Buffer): void }).write(wire);
      } else {
        const message = new Message({
          destination: spec.destination,
          path: spec.path,
          interface: spec.interface,
          member: spec.member,
          ...(spec.signature ? { signature: spec.signature, body: spec.body ?? [] } : {}),
        });
        message.serial = serial;
        connection.message(message);
      }
    } catch (error) {
      delete this.internals._methodReturnHandlers[serial];
      this.inFlight.delete(serial);
      state.inFlight--;
      if (long) state.longCalls--;
      pending.reject(toCallError(spec, error));
    }
  }

  private ensureSweep(): void {
    if (this.sweepTimer) return;
    this.sweepTimer = setInterval(() => {
      // The timer phase runs before pending socket reads: decide after I/O had its turn.
      setImmediate(() => this.sweep());
    }, SWEEP_INTERVAL_MS);
    this.sweepTimer.unref();
  }

  private sweep(): void {
    const now = Date.now();
    for (const [serial, call] of this.inFlight) {
      if (call.deadline > now) continue;
      const heard = this.lastHeard.get(call.destination) ?? 0;
      // Busy, not hung: it answered something else within the last timeout period, or it is still working on a
      // bulk call of ours (within that call's own timeout) that this one waits behind.
      const age = now - call.sentAt;
      const busy = now - heard < call.timeoutMs || (!call.long && call.state.longCalls > 0);
      // A silent application whose process still runs (not stopped) gets a short grace: a busy main loop on a
      // loaded machine is not a hang. A stopped process (SIGSTOP, a debugger) is not responding at once.
      const grace = !this.isStopped(call.destination) && age < call.timeoutMs * SILENT_GRACE_FACTOR;
      if ((busy && age < call.timeoutMs * BUSY_EXTENSION_FACTOR) || grace) {
        call.deadline = now + call.timeoutMs;
        continue;
      }
      // Forget the reply handler so a late answer is dropped and nothing leaks.
      delete this.internals._methodReturnHandlers[serial];
      this.inFlight.delete(serial);
      call.state.inFlight--;
      if (call.long) call.state.longCalls--;
      call.state.hungUntil = now + HUNG_BACKOFF_MS;
      call.pending.reject(this.notResponding(call.pending.spec, call.timeoutMs));
      // Everything queued behind a hung call would time out too: pump fails it now.
      this.pump(call.destination, call.state);
    }
    if (this.inFlight.size === 0 && this.sweepTimer) {
      clearInterval(this.sweepTimer);
      this.sweepTimer = undefined;
    }
  }

  private notResponding(spec: CallSpec, timeoutMs: number): InspectorError {
    const what = `${spec.interface.replace('org.a11y.atspi.', '')}.${spec.member}`;
    const message =
      timeoutMs > 0
        ? `application ${spec.destination} is not responding (${what} got no answer within ${timeoutMs} ms)`
        : `application ${spec.destination} is not responding (it timed out recently; ${what} not sent)`;
    return new InspectorError('not-responding', message, { runtimeId: `atspi://${spec.destination}${spec.path}` });
  }
}

function toCallError(spec: CallSpec, error: unknown): InspectorError {
  const runtimeId = `atspi://${spec.destination}${spec.path}`;
  const what = `${spec.interface}.${spec.member}`;
  if (error instanceof dbusNext.DBusError) {
    // The D-Bus error text never carries our arguments; still, only its name and the method go into the message.
    if (GONE_ERRORS.has(error.type)) {
      return new InspectorError('stale-node', `the element is gone (${what}: ${error.type})`, { runtimeId });
    }
    if (error.type === 'org.freedesktop.DBus.Error.UnknownMethod') {
      return new InspectorError('unsupported', `${what} is not available on this element`, { runtimeId });
    }
    return new InspectorError('action-failed', `${what} failed: ${error.type}`, { runtimeId });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new InspectorError('internal', `${what} failed: ${message}`, { runtimeId });
}
