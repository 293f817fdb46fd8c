import { InspectorError } from '../../shared/model/errors.js';
import { Fifo } from '../../shared/fifo.js';
import { DbusConnectError, DbusConnection, type RefusedMessage, SerialCounter } from './connection.js';
import { type DbusMessage, MessageType, Variant } from './message.js';

/**
 * The provider's D-Bus client over its own connection (dbus/): calls with hard-coded signatures (no
 * introspection), a timeout on every call, and per-destination flow control so that thousands of pipelined calls
 * neither flood one application nor let a hung application stall calls to the others. Calls to a destination with a
 * peer-to-peer connection (connectPeer) go straight to it instead of through the bus daemon.
 */

export const DEFAULT_CALL_TIMEOUT_MS = 1000;
/** How long a destination that timed out is treated as hung (calls fail fast) before it is tried again. */
const HUNG_BACKOFF_MS = 3000;
/**
 * Calls in flight per destination: about 6 ms of a Chromium's work. On a loaded machine this process is often off the
 * CPU for a few milliseconds; with 96 (3 ms) the application ran out of work meanwhile.
 */
const DEFAULT_MAX_IN_FLIGHT = 192;
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

/** One call: queued for its destination's window, then in flight (the fields from `via` on set when it is sent). */
interface Call {
  spec: CallSpec;
  resolve: (body: unknown[]) => void;
  reject: (error: unknown) => void;
  destination: string;
  state: DestinationState;
  /** The connection the call went out on: only its answer counts. */
  via: DbusConnection | undefined;
  timeoutMs: number;
  sentAt: number;
  deadline: number;
  long: boolean;
}

/** How often pending calls are checked against their deadlines. */
const SWEEP_INTERVAL_MS = 50;

interface DestinationState {
  inFlight: number;
  /** Calls in flight with a longer timeout than the default (bulk calls): calls behind them wait for them. */
  longCalls: number;
  queue: Fifo<Call>;
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
  private closedError: InspectorError | undefined;
  private readonly inFlight = new Map<number, Call>();
  private sweepTimer: ReturnType<typeof setInterval> | undefined;
  /** Peer-to-peer connections by the destination they carry calls to. */
  private readonly peers = new Map<string, DbusConnection>();
  /** Number of method calls sent, for benchmarks and tests. */
  callCount = 0;
  /** How many of them went on a peer-to-peer connection. */
  peerCallCount = 0;
  /** Tells whether the process behind a destination is stopped (set by the provider, which knows the PIDs). */
  isStopped: (destination: string) => boolean = () => true;
  /** Called once when the connection is lost (not when closed on purpose). */
  onClose: ((reason: string) => void) | undefined;

  private constructor(
    private readonly connection: DbusConnection,
    private readonly serials: SerialCounter,
    readonly address: string,
    readonly callTimeoutMs: number,
    private readonly maxInFlight: number,
  ) {
    connection.onMessage = (message) => this.receive(message, connection);
    connection.onRefused = (refused) => this.refuse(refused, connection);
    connection.onLost = (reason) => this.lose(reason);
  }

  /** Connects to a bus address (`unix:path=`, `unix:abstract=`): authenticates and says Hello. */
  static async connect(
    address: string,
    options: { callTimeoutMs?: number; maxInFlight?: number } = {},
  ): Promise<DbusClient> {
    const timeoutMs = options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
    const serials = new SerialCounter();
    const connection = await openConnection(address, timeoutMs * 3, { hello: true, serials });
    return new DbusClient(connection, serials, address, timeoutMs, options.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT);
  }

  /**
   * Opens a peer-to-peer connection to the server at `address` (an AT-SPI application's own socket, from
   * GetApplicationBusAddress) and sends every later call to `destination` through it, skipping the bus daemon. Its
   * loss fails the calls in flight on it as gone and sends later calls through the bus again. Rejects with an
   * InspectorError when the server cannot be reached; calls then keep going through the bus.
   */
  async connectPeer(destination: string, address: string): Promise<void> {
    if (this.closed || this.peers.has(destination)) return;
    const peer = await openConnection(address, this.callTimeoutMs * 3, { hello: false, serials: this.serials });
    if (this.closed || this.peers.has(destination)) {
      peer.close();
      return;
    }
    peer.onMessage = (message) => {
      this.lastHeard.set(destination, Date.now());
      // An application sends its events to the bus and to every peer; they are taken from the bus alone.
      if (message.type !== MessageType.SIGNAL) this.receive(message, peer);
    };
    peer.onRefused = (refused) => {
      this.lastHeard.set(destination, Date.now());
      this.refuse(refused, peer);
    };
    peer.onLost = (reason) => this.losePeer(destination, peer, reason);
    this.peers.set(destination, peer);
  }

  /** True when calls to `destination` go on a peer-to-peer connection. */
  hasPeer(destination: string): boolean {
    return this.peers.has(destination);
  }

  private losePeer(destination: string, peer: DbusConnection, reason: string): void {
    if (this.peers.get(destination) === peer) this.peers.delete(destination);
    const state = this.destinations.get(destination);
    for (const [serial, call] of this.inFlight) {
      if (call.via !== peer) continue;
      this.settle(serial, call);
      const { spec } = call;
      call.reject(
        new InspectorError(
          'stale-node',
          `the element is gone (${spec.interface}.${spec.member}: the application closed its connection: ${reason})`,
          { runtimeId: `atspi://${spec.destination}${spec.path}` },
        ),
      );
    }
    if (state) this.pump(destination, state);
  }

  private receive(message: DbusMessage, via: DbusConnection): void {
    if (message.sender) this.lastHeard.set(message.sender, Date.now());
    if (message.type === MessageType.SIGNAL) {
      if (this.signalListeners.size === 0) return;
      const signal: SignalMessage = {
        sender: message.sender ?? '',
        path: message.path ?? '',
        interface: message.interface ?? '',
        member: message.member ?? '',
        signature: message.signature,
        body: message.body,
      };
      for (const listener of this.signalListeners) {
        try {
          listener(signal);
        } catch {
          // A listener's failure must not break the connection's message loop.
        }
      }
      return;
    }
    const serial = message.replySerial;
    if (serial === undefined) return;
    const call = this.inFlight.get(serial);
    if (!call || call.via !== via) return; // a late answer to a call that timed out
    this.settle(serial, call);
    if (message.type === MessageType.ERROR) {
      call.reject(toCallError(call.spec, message.errorName ?? ''));
    } else {
      if (call.state.hungUntil !== 0) call.state.hungUntil = 0;
      call.resolve(message.body);
    }
    // Refill in batches: once half the window is free rather than one call per reply, so thousands of pipelined
    // calls go out in few writes (one write per reply cost more than the calls themselves).
    if (call.state.inFlight <= this.maxInFlight >> 1) this.pump(call.destination, call.state);
  }

  /** A message that could not be read: the call it answers fails with what was wrong, naming the method. */
  private refuse(refused: RefusedMessage, via: DbusConnection): void {
    if (refused.sender) this.lastHeard.set(refused.sender, Date.now());
    const serial = refused.replySerial;
    const call = serial === undefined ? undefined : this.inFlight.get(serial);
    if (!call || serial === undefined || call.via !== via) return;
    this.settle(serial, call);
    const { spec } = call;
    call.reject(
      new InspectorError(
        'provider-unavailable',
        `${spec.interface}.${spec.member}: ${spec.destination} sent a malformed reply (${refused.reason})`,
        { runtimeId: `atspi://${spec.destination}${spec.path}` },
      ),
    );
    if (call.state.inFlight <= this.maxInFlight >> 1) this.pump(call.destination, call.state);
  }

  private lose(reason: string): void {
    if (!this.closed) this.onClose?.(reason);
    this.closed = true;
    this.closePeers();
    this.failAll(new InspectorError('provider-unavailable', `the accessibility bus connection was lost: ${reason}`));
  }

  /** Takes a call out of the window. */
  private settle(serial: number, call: Call): void {
    this.inFlight.delete(serial);
    call.state.inFlight--;
    if (call.long) call.state.longCalls--;
  }

  private failAll(error: InspectorError): void {
    for (const [, call] of this.inFlight) call.reject(error);
    this.inFlight.clear();
    for (const [, state] of this.destinations) {
      for (const queued of state.queue.drain()) queued.reject(error);
      state.inFlight = 0;
      state.longCalls = 0;
    }
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.sweepTimer = undefined;
  }

  /** This connection's unique name on the bus (`:1.42`). */
  get uniqueName(): string {
    return this.connection.uniqueName;
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
        // One error for every call after the close: a bulk load cut short may still issue thousands (an error with
        // its stack each took seconds after a timeout).
        reject(
          (this.closedError ??= new InspectorError(
            'provider-unavailable',
            'the accessibility bus connection is closed',
          )),
        );
        return;
      }
      const state = this.stateOf(spec.destination);
      if (state.hungUntil > Date.now()) {
        reject(this.notResponding(spec, 0));
        return;
      }
      const destination = spec.destination;
      state.queue.push({
        spec,
        resolve,
        reject,
        destination,
        state,
        via: undefined,
        timeoutMs: 0,
        sentAt: 0,
        deadline: 0,
        long: false,
      });
      this.pump(destination, state);
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
      body: [iface, name, new Variant(signature, value)],
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
    this.failAll(new InspectorError('cancelled', 'the accessibility bus connection was closed'));
    this.closePeers();
    this.connection.close();
  }

  private closePeers(): void {
    for (const peer of this.peers.values()) peer.close();
    this.peers.clear();
  }

  private stateOf(destination: string): DestinationState {
    let state = this.destinations.get(destination);
    if (!state) {
      state = { inFlight: 0, longCalls: 0, queue: new Fifo<Call>(), hungUntil: 0 };
      this.destinations.set(destination, state);
    }
    return state;
  }

  private pump(destination: string, state: DestinationState): void {
    let call: Call | undefined;
    while (state.inFlight < this.maxInFlight && (call = state.queue.take()) !== undefined) {
      if (state.hungUntil > Date.now()) {
        call.reject(this.notResponding(call.spec, 0));
        continue;
      }
      this.send(destination, state, call);
    }
  }

  private send(destination: string, state: DestinationState, call: Call): void {
    const { spec } = call;
    const timeoutMs = spec.timeoutMs ?? this.callTimeoutMs;
    const serial = this.serials.next();
    const now = Date.now();
    const long = timeoutMs > this.callTimeoutMs;
    const peer = this.peers.get(destination);
    const via = peer ?? this.connection;
    try {
      via.sendMethodCall(serial, spec);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      call.reject(
        new InspectorError('internal', `${spec.interface}.${spec.member} could not be sent: ${message}`, {
          runtimeId: `atspi://${spec.destination}${spec.path}`,
        }),
      );
      return;
    }
    call.via = via;
    call.timeoutMs = timeoutMs;
    call.sentAt = now;
    call.deadline = now + timeoutMs;
    call.long = long;
    state.inFlight++;
    if (long) state.longCalls++;
    this.callCount++;
    if (peer) this.peerCallCount++;
    this.inFlight.set(serial, call);
    this.ensureSweep();
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
      // Forgotten, so a late answer is dropped and nothing leaks.
      this.settle(serial, call);
      call.state.hungUntil = now + HUNG_BACKOFF_MS;
      call.reject(this.notResponding(call.spec, call.timeoutMs));
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

async function openConnection(
  address: string,
  timeoutMs: number,
  options: { hello: boolean; serials: SerialCounter },
): Promise<DbusConnection> {
  try {
    return await DbusConnection.open(address, timeoutMs, options);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const code =
      error instanceof DbusConnectError && /did not complete/.test(message) ? 'timeout' : 'provider-unavailable';
    throw new InspectorError(code, `cannot connect to D-Bus at ${address}: ${message}`);
  }
}

/** A D-Bus error reply as an InspectorError: only its name and the method, never its text or our arguments. */
function toCallError(spec: CallSpec, errorName: string): InspectorError {
  const runtimeId = `atspi://${spec.destination}${spec.path}`;
  const what = `${spec.interface}.${spec.member}`;
  if (GONE_ERRORS.has(errorName)) {
    return new InspectorError('stale-node', `the element is gone (${what}: ${errorName})`, { runtimeId });
  }
  if (errorName === 'org.freedesktop.DBus.Error.UnknownMethod') {
    return new InspectorError('unsupported', `${what} is not available on this element`, { runtimeId });
  }
  return new InspectorError('action-failed', `${what} failed: ${errorName}`, { runtimeId });
}
