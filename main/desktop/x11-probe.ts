// A minimal X11 protocol client over the display's Unix socket, authorised with an MIT-MAGIC-COOKIE-1: just enough to
// ask who owns a selection (WM_S0, which a window manager takes when it manages the screen). No Xlib, no extra
// process per poll, so waiting for openbox costs a few milliseconds.
import net from 'node:net';

const pad4 = (n: number) => (4 - (n % 4)) % 4;
const COOKIE_PROTOCOL = Buffer.from('MIT-MAGIC-COOKIE-1', 'latin1');

interface Pending {
  resolve(reply: Buffer): void;
  reject(error: Error): void;
  opcode: number;
}

export class X11Probe {
  private buffer = Buffer.alloc(0);
  private setupWaiter: ((error?: Error) => void) | undefined;
  private setupDone = false;
  private sequence = 0;
  private readonly pending = new Map<number, Pending>();

  private constructor(private readonly socket: net.Socket) {
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('error', (error) => this.failAll(error));
    socket.on('close', () => this.failAll(new Error('X11 connection closed')));
  }

  /** Connects to display number `display` and completes the connection setup with the cookie (if any). */
  static connect(display: number, cookie: Buffer | undefined, timeoutMs = 2000): Promise<X11Probe> {
    return new Promise((resolve, reject) => {
      const socket = net.createConnection(`/tmp/.X11-unix/X${display}`);
      const probe = new X11Probe(socket);
      const timer = setTimeout(() => probe.setupWaiter?.(new Error(`X11 setup on :${display} timed out`)), timeoutMs);
      probe.setupWaiter = (error) => {
        clearTimeout(timer);
        probe.setupWaiter = undefined;
        if (error) {
          socket.destroy();
          reject(error);
        } else resolve(probe);
      };
      socket.on('connect', () => {
        const name = cookie ? COOKIE_PROTOCOL : Buffer.alloc(0);
        const data = cookie ?? Buffer.alloc(0);
        const setup = Buffer.alloc(12);
        setup.write('l', 0, 'latin1'); // little endian
        setup.writeUInt16LE(11, 2); // protocol 11.0
        setup.writeUInt16LE(name.length, 6);
        setup.writeUInt16LE(data.length, 8);
        socket.write(
          Buffer.concat([setup, name, Buffer.alloc(pad4(name.length)), data, Buffer.alloc(pad4(data.length))]),
        );
      });
    });
  }

  private onData(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    if (!this.setupDone) {
      if (this.buffer.length < 8) return;
      const total = 8 + this.buffer.readUInt16LE(6) * 4;
      if (this.buffer.length < total) return;
      const status = this.buffer[0];
      const reason = this.buffer.subarray(8, 8 + (this.buffer[1] ?? 0)).toString('latin1');
      this.buffer = this.buffer.subarray(total);
      this.setupDone = true;
      this.setupWaiter?.(
        status === 1 ? undefined : new Error(`X11 connection refused: ${reason.trim() || `status ${status}`}`),
      );
    }
    while (this.buffer.length >= 32) {
      const type = this.buffer[0];
      const length = type === 1 ? 32 + this.buffer.readUInt32LE(4) * 4 : 32;
      if (this.buffer.length < length) return;
      const packet = Buffer.from(this.buffer.subarray(0, length));
      this.buffer = this.buffer.subarray(length);
      if (type !== 0 && type !== 1) continue; // events: none asked for
      const pending = this.pending.get(packet.readUInt16LE(2));
      if (!pending) continue;
      this.pending.delete(packet.readUInt16LE(2));
      if (type === 0) pending.reject(new Error(`X11 error code ${packet[1]} for request ${pending.opcode}`));
      else pending.resolve(packet);
    }
  }

  private failAll(error: Error): void {
    this.setupWaiter?.(error);
    for (const pending of this.pending.values()) pending.reject(error);
    this.pending.clear();
  }

  private request(opcode: number, data: Buffer, byte1 = 0): Promise<Buffer> {
    const body = Buffer.concat([data, Buffer.alloc(pad4(data.length))]);
    const header = Buffer.alloc(4);
    header[0] = opcode;
    header[1] = byte1;
    header.writeUInt16LE((4 + body.length) / 4, 2);
    this.sequence = (this.sequence + 1) & 0xffff;
    const sequence = this.sequence;
    return new Promise((resolve, reject) => {
      this.pending.set(sequence, { resolve, reject, opcode });
      this.socket.write(Buffer.concat([header, body]));
    });
  }

  private async internAtom(name: string): Promise<number> {
    const nameBuffer = Buffer.from(name, 'latin1');
    const length = Buffer.alloc(4);
    length.writeUInt16LE(nameBuffer.length, 0);
    const reply = await this.request(16, Buffer.concat([length, nameBuffer]));
    return reply.readUInt32LE(8);
  }

  /** The window owning the selection, or 0 when nobody owns it. */
  async selectionOwner(name: string): Promise<number> {
    const atom = Buffer.alloc(4);
    atom.writeUInt32LE(await this.internAtom(name), 0);
    const reply = await this.request(23, atom);
    return reply.readUInt32LE(8);
  }

  close(): void {
    this.socket.destroy();
  }
}
