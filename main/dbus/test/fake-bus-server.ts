import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { type DbusMessage, MessageType } from '../message.js';
import { decodeMessage, messageLength } from '../reader.js';
import { marshalMessage, type OutgoingMessage } from '../writer.js';

/**
 * A bus for tests of the D-Bus connection on a unix socket of its own: it speaks the SASL handshake (or refuses it),
 * answers Hello and hands every other message to `onMessage` with the socket, so a test can answer, stay silent,
 * send broken bytes or hang up.
 */
export interface FakeBus {
  address: string;
  /** Every message received after Hello. */
  received: DbusMessage[];
  onMessage: (message: DbusMessage, peer: FakePeer) => void;
  close(): Promise<void>;
}

export interface FakePeer {
  send(message: Omit<OutgoingMessage, 'serial'> & { serial?: number }): void;
  reply(to: DbusMessage, signature?: string, body?: unknown[]): void;
  raw(bytes: Buffer): void;
  end(): void;
}

export async function startFakeBus(options: { refuseAuth?: boolean } = {}): Promise<FakeBus> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'platynui-fake-bus-'));
  const socketPath = path.join(dir, 'bus');
  const sockets = new Set<net.Socket>();
  const bus: FakeBus = {
    address: `unix:path=${socketPath},guid=0123456789abcdef0123456789abcdef`,
    received: [],
    onMessage: () => undefined,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => {
          rmSync(dir, { recursive: true, force: true });
          resolve();
        });
      }),
  };
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
    let serial = 100;
    let authenticated = false;
    let buffered = Buffer.alloc(0);
    const peer: FakePeer = {
      send: (message) => socket.write(marshalMessage({ serial: serial++, sender: 'org.freedesktop.DBus', ...message })),
      reply: (to, signature, body) =>
        peer.send({
          type: MessageType.METHOD_RETURN,
          replySerial: to.serial,
          ...(signature ? { signature, body: body ?? [] } : {}),
        }),
      raw: (bytes) => socket.write(bytes),
      end: () => socket.end(),
    };
    socket.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      while (!authenticated) {
        const end = buffered.indexOf('\r\n');
        if (end < 0) return;
        const line = buffered.toString('latin1', 0, end).replace(/^\u0000/, '');
        buffered = buffered.subarray(end + 2);
        if (line.startsWith('AUTH')) {
          socket.write(
            options.refuseAuth ? 'REJECTED DBUS_COOKIE_SHA1\r\n' : 'OK 0123456789abcdef0123456789abcdef\r\n',
          );
        } else if (line === 'BEGIN') authenticated = true;
      }
      for (;;) {
        const length = messageLength(buffered, 0);
        if (length === undefined || buffered.length < length) return;
        const message = decodeMessage(buffered.subarray(0, length));
        buffered = buffered.subarray(length);
        if (message.member === 'Hello') peer.reply(message, 's', [':1.7']);
        else {
          bus.received.push(message);
          bus.onMessage(message, peer);
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  return bus;
}
