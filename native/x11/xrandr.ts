import { declare, koffi, loadLibrary, type Pointer } from './load.js';
import type { Display } from './xlib.js';

/** koffi bindings to RandR 1.5 (libXrandr.so.2): the monitors of the screen. */
export const XRRMonitorInfo = koffi.struct('PlatynXRRMonitorInfo', {
  name: 'unsigned long',
  primary: 'int',
  automatic: 'int',
  noutput: 'int',
  x: 'int',
  y: 'int',
  width: 'int',
  height: 'int',
  mwidth: 'int',
  mheight: 'int',
  outputs: 'void *',
});

export interface XRRMonitorInfoValue {
  name: number | bigint;
  primary: number;
  automatic: number;
  noutput: number;
  x: number;
  y: number;
  width: number;
  height: number;
  mwidth: number;
  mheight: number;
}

export interface XRandr {
  XRRQueryExtension(display: Display, event: [number], error: [number]): number;
  XRRGetMonitors(display: Display, window: number, getActive: number, count: [number]): Pointer;
  XRRFreeMonitors(monitors: bigint): void;
}

let cached: XRandr | undefined;

export function loadXRandr(): XRandr {
  if (cached) return cached;
  const lib = loadLibrary('libXrandr.so.2', 'libxrandr2', 'monitor information (RandR)');
  const f = <T>(prototype: string) => declare<T>(lib, prototype);
  cached = {
    XRRQueryExtension: f('int XRRQueryExtension(void *display, _Out_ int *event, _Out_ int *error)'),
    XRRGetMonitors: f('void *XRRGetMonitors(void *display, unsigned long window, int getActive, _Out_ int *count)'),
    XRRFreeMonitors: f('void XRRFreeMonitors(void *monitors)'),
  };
  return cached;
}
