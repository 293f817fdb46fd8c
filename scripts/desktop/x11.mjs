// A minimal X11 protocol client over the display's Unix socket: just enough to ask who owns a selection (e.g. WM_S0,
// which a window manager takes when it starts managing the screen). No Xlib, no extra process per poll.
import net from 'node:net';

const pad4 = (n) => (4 - (n % 4)) % 4;

export class X11Connection {
  #socket;
  #buffer = Buffer.alloc(0);
  #setupDone = false;
  #setupWaiter;
  #sequence = 0;
  #pending = new Map();

  constructor(socket) {
    this.#socket = socket;
    socket.on('data', (chunk) => this.#onData(chunk));
    socket.on('error', (err) => this.#failAll(err));
    socket.on('close', () => this.#failAll(new Error('X11 connection closed')));
  }

  /** Connects to display number `display` (a number or ':N') and completes the connection setup. */
  static connect(display, { timeoutMs = 2000 } = {}) {
    const number = String(display).replace(/^:/, '').split('.')[0];
    return new Promise((resolve, reject) => {
      const socket = net.createConnection(`/tmp/.X11-unix/X${number}`);
      const conn = new X11Connection(socket);
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new Error(`X11 setup on :${number} timed out`));
      }, timeoutMs);
      conn.#setupWaiter = (err) => {
        clearTimeout(timer);
        if (err) {
          socket.destroy();
          reject(err);
        } else resolve(conn);
      };
      socket.once('error', (err) => conn.#setupWaiter?.(err));
      socket.on('connect', () => {
        const setup = Buffer.alloc(12);
        setup.write('l', 0, 'latin1'); // little endian
        setup.writeUInt16LE(11, 2);
        setup.writeUInt16LE(0, 4);
        socket.write(setup);
      });
    });
  }

  #onData(chunk) {
    this.#buffer = Buffer.concat([this.#buffer, chunk]);
    if (!this.#setupDone) {
      if (this.#buffer.length < 8) return;
      const total = 8 + this.#buffer.readUInt16LE(6) * 4;
      if (this.#buffer.length < total) return;
      const status = this.#buffer[0];
      const reason = this.#buffer.subarray(8, 8 + this.#buffer[1]).toString('latin1');
      this.#buffer = this.#buffer.subarray(total);
      this.#setupDone = true;
      const waiter = this.#setupWaiter;
      this.#setupWaiter = undefined;
      waiter?.(status === 1 ? undefined : new Error(`X11 connection refused: ${reason || 'status ' + status}`));
    }
    while (this.#buffer.length >= 32) {
      const type = this.#buffer[0];
      const length = type === 1 ? 32 + this.#buffer.readUInt32LE(4) * 4 : 32;
      if (this.#buffer.length < length) return;
      const packet = this.#buffer.subarray(0, length);
      this.#buffer = this.#buffer.subarray(length);
      if (type !== 0 && type !== 1) continue; // events: not asked for
      const seq = packet.readUInt16LE(2);
      const pending = this.#pending.get(seq);
      if (!pending) continue;
      this.#pending.delete(seq);
      if (type === 0) pending.reject(new Error(`X11 error code ${packet[1]} for request ${pending.opcode}`));
      else pending.resolve(Buffer.from(packet));
    }
  }

  #failAll(err) {
    this.#setupWaiter?.(err);
    this.#setupWaiter = undefined;
    for (const p of this.#pending.values()) p.reject(err);
    this.#pending.clear();
  }

  #request(opcode, data, byte1 = 0) {
    const body = Buffer.concat([data, Buffer.alloc(pad4(data.length))]);
    const header = Buffer.alloc(4);
    header[0] = opcode;
    header[1] = byte1;
    header.writeUInt16LE((4 + body.length) / 4, 2);
    this.#sequence = (this.#sequence + 1) & 0xffff;
    const seq = this.#sequence;
    return new Promise((resolve, reject) => {
      this.#pending.set(seq, { resolve, reject, opcode });
      this.#socket.write(Buffer.concat([header, body]));
    });
  }

  async internAtom(name, onlyIfExists = false) {
    const nameBuf = Buffer.from(name, 'latin1');
    const data = Buffer.alloc(4);
    data.writeUInt16LE(nameBuf.length, 0);
    const reply = await this.#request(16, Buffer.concat([data, nameBuf]), onlyIfExists ? 1 : 0);
    return reply.readUInt32LE(8);
  }

  /** The window owning the selection, or 0 when nobody owns it. */
  async getSelectionOwner(name) {
    const atom = await this.internAtom(name);
    const data = Buffer.alloc(4);
    data.writeUInt32LE(atom, 0);
    const reply = await this.#request(23, data);
    return reply.readUInt32LE(8);
  }

  close() {
    this.#socket.destroy();
  }
}
