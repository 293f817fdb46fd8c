import { declare, loadLibrary } from './load.js';
import type { Display } from './xlib.js';

/** koffi bindings to the XTest extension (libXtst.so.6): synthetic pointer and key events. */
export interface XTest {
  XTestQueryExtension(display: Display, event: [number], error: [number], major: [number], minor: [number]): number;
  XTestFakeMotionEvent(display: Display, screen: number, x: number, y: number, delay: number): number;
  XTestFakeButtonEvent(display: Display, button: number, isPress: number, delay: number): number;
  XTestFakeKeyEvent(display: Display, keycode: number, isPress: number, delay: number): number;
}

let cached: XTest | undefined;

export function loadXTest(): XTest {
  if (cached) return cached;
  const lib = loadLibrary('libXtst.so.6', 'libxtst6', 'synthetic pointer and keyboard input (XTest)');
  const f = <T>(prototype: string) => declare<T>(lib, prototype);
  cached = {
    XTestQueryExtension: f(
      'int XTestQueryExtension(void *display, _Out_ int *event, _Out_ int *error, _Out_ int *major, _Out_ int *minor)',
    ),
    XTestFakeMotionEvent: f('int XTestFakeMotionEvent(void *display, int screen, int x, int y, unsigned long delay)'),
    XTestFakeButtonEvent: f(
      'int XTestFakeButtonEvent(void *display, unsigned int button, int isPress, unsigned long delay)',
    ),
    XTestFakeKeyEvent: f(
      'int XTestFakeKeyEvent(void *display, unsigned int keycode, int isPress, unsigned long delay)',
    ),
  };
  return cached;
}
