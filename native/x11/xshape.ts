import { declare, loadLibrary } from './load.js';
import type { Display } from './xlib.js';

/** koffi bindings to the SHAPE extension (libXext.so.6), used to make overlay windows transparent to input. */
export const ShapeInput = 2;
export const ShapeSet = 0;
export const Unsorted = 0;

export interface XShape {
  XShapeQueryExtension(display: Display, event: [number], error: [number]): number;
  /** `rectangles` is a packed XRectangle array (int16 x, int16 y, uint16 width, uint16 height). */
  XShapeCombineRectangles(
    display: Display,
    window: number,
    kind: number,
    xOffset: number,
    yOffset: number,
    rectangles: Uint8Array | null,
    count: number,
    op: number,
    ordering: number,
  ): void;
}

let cached: XShape | undefined;

export function loadXShape(): XShape {
  if (cached) return cached;
  const lib = loadLibrary('libXext.so.6', 'libxext6', 'input-transparent highlight windows (SHAPE)');
  const f = <T>(prototype: string) => declare<T>(lib, prototype);
  cached = {
    XShapeQueryExtension: f('int XShapeQueryExtension(void *display, _Out_ int *event, _Out_ int *error)'),
    XShapeCombineRectangles: f(
      'void XShapeCombineRectangles(void *display, unsigned long window, int kind, int xOffset, int yOffset, ' +
        'uint8_t *rectangles, int count, int op, int ordering)',
    ),
  };
  return cached;
}
