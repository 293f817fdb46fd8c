import { readULongs } from '../../../../../native/x11/load.js';
import { X11Connection } from '../../connection.js';

/** Reads server state over a connection of its own (not the one under test). */
function withConnection<T>(display: string, body: (c: X11Connection) => T): T {
  const c = X11Connection.open(display);
  try {
    return body(c);
  } finally {
    c.close();
  }
}

/** The server's whole keyboard mapping. */
export function serverKeymap(display: string): number[] {
  return withConnection(display, (c) => {
    const min: [number] = [0];
    const max: [number] = [0];
    c.xlib.XDisplayKeycodes(c.display, min, max);
    const per: [number] = [0];
    const pointer = c.xlib.XGetKeyboardMapping(c.display, min[0], max[0] - min[0] + 1, per)!;
    const keysyms = readULongs(pointer, (max[0] - min[0] + 1) * per[0]);
    c.xlib.XFree(pointer);
    return keysyms;
  });
}

/** The keycodes the server has down now. */
export function keysDown(display: string): number[] {
  return withConnection(display, (c) => {
    const keys = new Uint8Array(32);
    c.xlib.XQueryKeymap(c.display, keys);
    const down: number[] = [];
    for (let k = 0; k < 256; k++) if (keys[k >> 3]! & (1 << (k & 7))) down.push(k);
    return down;
  });
}

/** The pointer buttons down now (bit 8 is button 1, bit 9 button 2, ...), from XQueryPointer's mask. */
export function buttonsDown(display: string): number[] {
  return withConnection(display, (c) => {
    const out = (): [number] => [0];
    const mask = out();
    c.xlib.XQueryPointer(c.display, c.root, out(), out(), out(), out(), out(), out(), mask);
    return [1, 2, 3, 4, 5].filter((button) => mask[0] & (1 << (7 + button)));
  });
}
