import net from 'node:net';
import { unixSocketOf } from './address.js';
import { type DbusMessage, MessageFlag, MessageType, WireFormatError } from './message.js';
import { messageLength, readHeader, readMessageBody } from './reader.js';
import { CallBatch, marshalMessage, type MethodCall } from './writer.js';

/**
 * One client connection to a D-Bus bus, wire protocol and all: a unix socket, SASL EXTERNAL authentication, Hello,
 * serials, framing of the byte stream into messages, and the answers the bus expects of every peer (Peer.Ping,
 * an UnknownMethod error for any other call). Calls and their replies are matched by the client above it
 * (dbus-client.ts), which gets every message through `onMessage`.
 */

/** The bytes one socket read takes at most. */
const READ_BYTES = 64 * 1024;

/** Longest line the server may send during authentication. */
const MAX_AUTH_LINE = 16 * 1024;

/** What a message that could not be read was, as far as its header could be read. */
export interface RefusedMessage {
  reason: string;
  /** The serial of the call this was a reply to, when the header could be read. */
  replySerial?: number;
  sender?: string;
}

export class DbusConnectError extends Error {}

/**
 * Serial numbers of outgoing messages. Connections of one client share one, so a reply's serial names one call
 * whichever connection it came on.
 */
export class SerialCounter {
  private last = 0;

  next(): number {
    this.last = this.last >= 0xffffffff ? 1 : this.last + 1;
    return this.last;
  }
}

export interface OpenOptions {
  /**
   * True (default) for a bus: say Hello and learn the unique name. False for a peer-to-peer connection (a server
   * an application runs for its clients), where there is no bus to greet.
   */
  hello?: boolean;
  serials?: SerialCounter;
}

export class DbusConnection {
  /** This connection's unique name on the bus (`:1.42`), from Hello. */
  uniqueName = '';
  onMessage: (message: DbusMessage) => void = () => undefined;
  /** A message whose fixed header was readable but whose fields or body were not: dropped, reported here. */
  onRefused: (refused: RefusedMessage) => void = () => undefined;
  /** Called once when the connection ends for any reason other than close(). */
  onLost: (reason: string) => void = () => undefined;

  private closed = false;
  /** Messages written in this tick, sent together at its end (method calls in `calls`, in between them in order). */
  private outgoing: Buffer[] = [];
  private readonly calls = new CallBatch();
  private flushing = false;
  /** Bytes received but not yet a whole message. */
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Length of the message being received, once its fixed header arrived. */
  private expected = 0;

  /** Where the bytes the socket reads go: the authentication's lines first, then the message framing. */
  private onBytes: (chunk: Buffer) => void = () => undefined;

  private constructor(
    private readonly socket: net.Socket,
    private readonly serials: SerialCounter,
    reads: { to: (chunk: Buffer) => void },
  ) {
    reads.to = (chunk) => this.onBytes(chunk);
    // Errors end the socket and surface as 'close' (or as the handshake's failure); none may go unhandled.
    socket.on('error', () => undefined);
  }

  /**
   * Connects to `address` (`unix:path=` or `unix:abstract=`), authenticates and says Hello (unless `hello` is
   * false); rejects with a DbusConnectError naming what failed, within `timeoutMs`.
   */
  static async open(address: string, timeoutMs: number, options: OpenOptions = {}): Promise<DbusConnection> {
    const socketPath = unixSocketOf(address);
    if (!socketPath)
      throw new DbusConnectError(`no unix socket in D-Bus address "${address}" (only unix: is supported)`);
    // Reads go into one buffer of the connection's own, handed over as they come (no stream, no buffer per read:
    // replies of small calls come one or two a read). What is kept of them past the call is copied.
    const reads = { to: (_chunk: Buffer): void => undefined };
    const readBuffer = Buffer.allocUnsafe(READ_BYTES);
    const socket = net.createConnection({
      path: socketPath,
      onread: {
        buffer: readBuffer,
        callback: (bytes) => {
          reads.to(readBuffer.subarray(0, bytes));
          return true;
        },
      },
    });
    const connection = new DbusConnection(socket, options.serials ?? new SerialCounter(), reads);
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      await Promise.race([
        connection.handshake(options.hello ?? true),
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new DbusConnectError(`connecting to ${address} did not complete within ${timeoutMs} ms`)),
            timeoutMs,
          );
        }),
      ]);
    } catch (error) {
      connection.closed = true;
      socket.destroy();
      throw error instanceof DbusConnectError ? error : new DbusConnectError(String(error));
    } finally {
      clearTimeout(timer);
    }
    return connection;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  nextSerial(): number {
    return this.serials.next();
  }

  /** Sends a method call (written in the same tick as others, in few syscalls). */
  sendCall(call: MethodCall): void {
    this.sendMethodCall(call.serial, call);
  }

  /** sendCall with the serial apart (the call's fields as the caller holds them, without a copy). */
  sendMethodCall(serial: number, call: Omit<MethodCall, 'serial'>): void {
    if (this.closed) throw new Error('the D-Bus connection is closed');
    this.calls.add(serial, call);
    this.scheduleFlush();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.socket.destroy();
  }

  private write(wire: Buffer): void {
    if (this.closed) throw new Error('the D-Bus connection is closed');
    const calls = this.calls.take();
    if (calls) this.outgoing.push(calls);
    this.outgoing.push(wire);
    this.scheduleFlush();
  }

  // The messages of one tick go out as one buffer in one socket write: thousands of pipelined calls cost little
  // more than one (a stream write per message cost more than marshalling it).
  private scheduleFlush(): void {
    if (this.flushing) return;
    this.flushing = true;
    process.nextTick(this.flush);
  }

  private readonly flush = (): void => {
    this.flushing = false;
    const calls = this.calls.take();
    if (calls) this.outgoing.push(calls);
    const messages = this.outgoing;
    this.outgoing = [];
    if (this.closed || messages.length === 0) return;
    this.socket.write(messages.length === 1 ? (messages[0] as Buffer) : Buffer.concat(messages));
  };

  private async handshake(hello: boolean): Promise<void> {
    const socket = this.socket;
    const lines = this.authLines();
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', (error) => reject(new DbusConnectError(`cannot connect: ${error.message}`)));
    });
    // SASL: a NUL byte, then EXTERNAL with our uid (the server checks it against the socket's credentials).
    const uid = typeof process.getuid === 'function' ? process.getuid() : 0;
    socket.write(`\u0000AUTH EXTERNAL ${Buffer.from(String(uid), 'ascii').toString('hex')}\r\n`);
    const answer = await lines.next();
    if (answer.startsWith('REJECTED')) {
      const offered = answer.slice('REJECTED'.length).trim();
      throw new DbusConnectError(
        `the bus refused EXTERNAL authentication for uid ${uid}${offered ? ` (it offers: ${offered})` : ''}`,
      );
    }
    if (!answer.startsWith('OK '))
      throw new DbusConnectError(`unexpected answer to AUTH: ${JSON.stringify(answer.slice(0, 80))}`);
    socket.write('BEGIN\r\n');
    const rest = lines.stop();
    this.listen(rest);
    if (!hello) return;
    const helloSerial = this.nextSerial();
    const reply = new Promise<string>((resolve, reject) => {
      this.onMessage = (message) => {
        if (message.replySerial !== helloSerial) return;
        if (message.type === MessageType.ERROR) reject(new DbusConnectError(`Hello failed: ${message.errorName}`));
        else resolve(String(message.body[0] ?? ''));
      };
      this.onLost = (reason) => reject(new DbusConnectError(`the bus closed the connection during Hello: ${reason}`));
    });
    this.sendCall({
      serial: helloSerial,
      destination: 'org.freedesktop.DBus',
      path: '/org/freedesktop/DBus',
      interface: 'org.freedesktop.DBus',
      member: 'Hello',
    });
    this.uniqueName = await reply;
    this.onMessage = () => undefined;
    this.onLost = () => undefined;
  }

  /** Reads the server's CRLF-terminated authentication lines; `stop` hands back what came after the last one. */
  private authLines(): { next(): Promise<string>; stop(): Buffer } {
    const socket = this.socket;
    let buffered: Buffer = Buffer.alloc(0);
    let waiting: { resolve(line: string): void; reject(error: Error): void } | undefined;
    const failure = (reason: string) => {
      const error = new DbusConnectError(reason);
      waiting?.reject(error);
      waiting = undefined;
    };
    const take = () => {
      if (!waiting) return;
      const end = buffered.indexOf('\r\n');
      if (end < 0) {
        if (buffered.length > MAX_AUTH_LINE) failure('the bus sent an authentication line longer than 16 KiB');
        return;
      }
      const line = buffered.toString('latin1', 0, end);
      buffered = buffered.subarray(end + 2);
      const w = waiting;
      waiting = undefined;
      w.resolve(line);
    };
    // (A read's buffer is reused: what is kept is a copy.)
    const onData = (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      take();
    };
    const onEnd = () => failure('the bus closed the connection during authentication');
    this.onBytes = onData;
    socket.on('close', onEnd);
    return {
      next: () =>
        new Promise<string>((resolve, reject) => {
          waiting = { resolve, reject };
          take();
        }),
      stop: () => {
        this.onBytes = () => undefined;
        socket.off('close', onEnd);
        return buffered;
      },
    };
  }

  private listen(first: Buffer): void {
    this.onBytes = (chunk) => this.receive(chunk);
    this.socket.on('close', () => {
      if (this.closed) return;
      this.closed = true;
      const partial =
        this.pendingBytes > 0 ? ` in the middle of a message (${this.pendingBytes} bytes of it read)` : '';
      this.onLost(`the bus closed the connection${partial}`);
    });
    if (first.length > 0) this.receive(first);
  }

  /**
   * Splits the byte stream into whole messages: zero-copy where a chunk holds whole messages; a message begun in an
   * earlier chunk is copied alone, and the rest of the chunk read in place.
   */
  private receive(chunk: Buffer): void {
    let buffer = chunk;
    if (this.pendingBytes > 0) {
      // The read's buffer is reused after this call: what belongs to the message begun is kept as a copy.
      const expected = this.expected;
      const needed = expected > 0 ? Math.min(chunk.length, expected - this.pendingBytes) : chunk.length;
      this.pending.push(Buffer.from(chunk.subarray(0, needed)));
      this.pendingBytes += needed;
      if (this.pendingBytes < Math.max(expected, 16)) return;
      buffer = expected > 0 ? chunk.subarray(needed) : Buffer.concat(this.pending, this.pendingBytes);
      const begun = expected > 0 ? Buffer.concat(this.pending, expected) : undefined;
      this.pending = [];
      this.pendingBytes = 0;
      this.expected = 0;
      if (begun) this.deliver(begun);
      if (this.closed) return;
    }
    let at = 0;
    try {
      while (!this.closed) {
        const length = messageLength(buffer, at);
        if (length === undefined || buffer.length - at < length) {
          this.expected = length ?? 0;
          break;
        }
        this.deliver(buffer.subarray(at, at + length));
        at += length;
      }
    } catch (error) {
      if (!(error instanceof WireFormatError)) throw error;
      // The stream cannot be read past a broken fixed header: nothing after it can be trusted to be a message.
      this.closed = true;
      this.socket.destroy();
      this.onLost(`the bus sent bytes that are not a D-Bus message (${error.message})`);
      return;
    }
    if (at < buffer.length && !this.closed) {
      this.pending.push(Buffer.from(buffer.subarray(at)));
      this.pendingBytes = buffer.length - at;
    }
  }

  private deliver(whole: Buffer): void {
    let header: ReturnType<typeof readHeader>;
    try {
      header = readHeader(whole);
    } catch (error) {
      if (!(error instanceof WireFormatError)) throw error;
      this.onRefused({ reason: `malformed message header: ${error.message}` });
      return;
    }
    let message: DbusMessage;
    try {
      message = readMessageBody(whole, header.message, header.bodyStart);
    } catch (error) {
      if (!(error instanceof WireFormatError)) throw error;
      const { replySerial, sender, signature } = header.message;
      this.onRefused({
        reason: `malformed body of signature "${String(signature ?? '')}": ${error.message}`,
        ...(replySerial !== undefined ? { replySerial } : {}),
        ...(typeof sender === 'string' ? { sender } : {}),
      });
      return;
    }
    if (message.type === MessageType.METHOD_CALL) {
      this.answer(message);
      return;
    }
    this.onMessage(message);
  }

  /** Calls to this connection: Peer.Ping answered, anything else refused, so no caller waits for its timeout. */
  private answer(call: DbusMessage): void {
    if ((call.flags & MessageFlag.NO_REPLY_EXPECTED) !== 0 || !call.sender || this.closed) return;
    const base = { serial: this.nextSerial(), replySerial: call.serial, destination: call.sender };
    if (call.interface === 'org.freedesktop.DBus.Peer' && call.member === 'Ping') {
      this.write(marshalMessage({ type: MessageType.METHOD_RETURN, ...base }));
      return;
    }
    this.write(
      marshalMessage({
        type: MessageType.ERROR,
        ...base,
        errorName: 'org.freedesktop.DBus.Error.UnknownMethod',
        signature: 's',
        body: [`${call.interface ?? ''}.${call.member ?? ''} is not offered by this connection`],
      }),
    );
  }
}
