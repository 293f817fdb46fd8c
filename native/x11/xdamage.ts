import { declare, loadLibrary } from './load.js';
import type { Display } from './xlib.js';

/**
 * koffi bindings to the DAMAGE extension (libXdamage.so.1): the server reports when pixels of a drawable change, so
 * the Screen view captures only after something was drawn.
 */

/** XDamageReportNonEmpty: one event when the damage region becomes non-empty, again only after XDamageSubtract. */
export const XDamageReportNonEmpty = 3;
/** XDamageNotify's offset from the extension's first event code. */
export const XDamageNotify = 0;

export interface XDamage {
  XDamageQueryExtension(display: Display, event: [number], error: [number]): number;
  XDamageCreate(display: Display, drawable: number, level: number): number;
  XDamageDestroy(display: Display, damage: number): void;
  /** `repair` and `parts` are XserverRegions; 0 (None) for both clears the whole damage region. */
  XDamageSubtract(display: Display, damage: number, repair: number, parts: number): void;
}

let cached: XDamage | undefined;

export function loadXDamage(): XDamage {
  if (cached) return cached;
  const lib = loadLibrary('libXdamage.so.1', 'libxdamage1', 'refreshing the Screen view when the screen changes');
  const f = <T>(prototype: string) => declare<T>(lib, prototype);
  cached = {
    XDamageQueryExtension: f('int XDamageQueryExtension(void *display, _Out_ int *event, _Out_ int *error)'),
    XDamageCreate: f('unsigned long XDamageCreate(void *display, unsigned long drawable, int level)'),
    XDamageDestroy: f('void XDamageDestroy(void *display, unsigned long damage)'),
    XDamageSubtract: f(
      'void XDamageSubtract(void *display, unsigned long damage, unsigned long repair, unsigned long parts)',
    ),
  };
  return cached;
}
