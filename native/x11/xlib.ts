import { copyBytes, declare, koffi, loadLibrary, readStruct, readULongs, type Pointer } from './load.js';

/**
 * koffi bindings to libX11 (libX11.so.6): only the calls the X11 platform uses, with the LP64 layouts of the structs
 * it reads. X ids (Window, Atom, KeySym) are C `unsigned long`; their values fit in 32 bits, so they are numbers here.
 */

export type Display = bigint;
export type XWindow = number;
export type Atom = number;

export const None = 0;
export const CurrentTime = 0;
export const AnyPropertyType = 0;
export const ZPixmap = 2;
export const AllPlanes = 0xffffffff;
export const PropModeReplace = 0;
export const IsViewable = 2;
export const InputOutput = 1;
export const InputOnly = 2;
export const CopyFromParent = 0;
export const MappingNotify = 34;
export const ClientMessage = 33;
export const StructureNotifyMask = 1 << 17;
export const SubstructureNotifyMask = 1 << 19;
export const SubstructureRedirectMask = 1 << 20;
export const CWBackPixel = 1 << 1;
export const CWBorderPixel = 1 << 3;
export const CWOverrideRedirect = 1 << 9;
export const CWSaveUnder = 1 << 10;
export const XA_ATOM = 4;
export const XA_CARDINAL = 6;
export const XA_STRING = 31;
export const XA_WINDOW = 33;
export const XA_WM_NAME = 39;
export const KeyPress = 2;
export const KeyRelease = 3;
export const ButtonPress = 4;
export const ButtonRelease = 5;
export const ButtonPressMask = 1 << 2;
export const ButtonReleaseMask = 1 << 3;
export const GrabModeAsync = 1;
export const GrabSuccess = 0;
export const LockMask = 1 << 1;
/** NumLock on most layouts. */
export const Mod2Mask = 1 << 4;
/** cursorfont.h: the cross hair shown while picking. */
export const XC_crosshair = 34;
export const XK_Escape = 0xff1b;

/** The grab results of XGrabPointer, by value. */
export const grabStatusNames: { [status: number]: string } = {
  1: 'AlreadyGrabbed',
  2: 'GrabInvalidTime',
  3: 'GrabNotViewable',
  4: 'GrabFrozen',
};

/**
 * Byte offsets in XButtonEvent and XKeyEvent (LP64; the two share their layout up to `button`/`keycode`): type 0,
 * window 32, root 40, subwindow 48, time 56, x 64, y 68, x_root 72, y_root 76, state 80, button/keycode 84.
 */
export const InputEventOffsets = { type: 0, subwindow: 48, xRoot: 72, yRoot: 76, state: 80, detail: 84 } as const;

export const XErrorEvent = koffi.struct('PlatynXErrorEvent', {
  type: 'int',
  display: 'void *',
  resourceid: 'unsigned long',
  serial: 'unsigned long',
  error_code: 'uint8_t',
  request_code: 'uint8_t',
  minor_code: 'uint8_t',
});

export interface XErrorEventValue {
  type: number;
  resourceid: number | bigint;
  serial: number | bigint;
  error_code: number;
  request_code: number;
  minor_code: number;
}

export const XWindowAttributes = koffi.struct('PlatynXWindowAttributes', {
  x: 'int',
  y: 'int',
  width: 'int',
  height: 'int',
  border_width: 'int',
  depth: 'int',
  visual: 'void *',
  root: 'unsigned long',
  class: 'int',
  bit_gravity: 'int',
  win_gravity: 'int',
  backing_store: 'int',
  backing_planes: 'unsigned long',
  backing_pixel: 'unsigned long',
  save_under: 'int',
  colormap: 'unsigned long',
  map_installed: 'int',
  map_state: 'int',
  all_event_masks: 'long',
  your_event_mask: 'long',
  do_not_propagate_mask: 'long',
  override_redirect: 'int',
  screen: 'void *',
});

export interface XWindowAttributesValue {
  x: number;
  y: number;
  width: number;
  height: number;
  depth: number;
  map_state: number;
  override_redirect: number;
}

export const XSetWindowAttributes = koffi.struct('PlatynXSetWindowAttributes', {
  background_pixmap: 'unsigned long',
  background_pixel: 'unsigned long',
  border_pixmap: 'unsigned long',
  border_pixel: 'unsigned long',
  bit_gravity: 'int',
  win_gravity: 'int',
  backing_store: 'int',
  backing_planes: 'unsigned long',
  backing_pixel: 'unsigned long',
  save_under: 'int',
  event_mask: 'long',
  do_not_propagate_mask: 'long',
  override_redirect: 'int',
  colormap: 'unsigned long',
  cursor: 'unsigned long',
});

export interface XSetWindowAttributesValue {
  background_pixmap: number;
  background_pixel: number;
  border_pixmap: number;
  border_pixel: number;
  bit_gravity: number;
  win_gravity: number;
  backing_store: number;
  backing_planes: number;
  backing_pixel: number;
  save_under: number;
  event_mask: number;
  do_not_propagate_mask: number;
  override_redirect: number;
  colormap: number;
  cursor: number;
}

/** The head of XImage up to obdata (the function table after it is not read). */
export const XImageHead = koffi.struct('PlatynXImageHead', {
  width: 'int',
  height: 'int',
  xoffset: 'int',
  format: 'int',
  data: 'void *',
  byte_order: 'int',
  bitmap_unit: 'int',
  bitmap_bit_order: 'int',
  bitmap_pad: 'int',
  depth: 'int',
  bytes_per_line: 'int',
  bits_per_pixel: 'int',
  red_mask: 'unsigned long',
  green_mask: 'unsigned long',
  blue_mask: 'unsigned long',
  obdata: 'void *',
});

export interface XImageHeadValue {
  width: number;
  height: number;
  data: Pointer;
  byte_order: number;
  depth: number;
  bytes_per_line: number;
  bits_per_pixel: number;
  red_mask: number | bigint;
  green_mask: number | bigint;
  blue_mask: number | bigint;
}

export const XColor = koffi.struct('PlatynXColor', {
  pixel: 'unsigned long',
  red: 'uint16_t',
  green: 'uint16_t',
  blue: 'uint16_t',
  flags: 'uint8_t',
  pad: 'uint8_t',
});

export const XErrorHandlerProto = koffi.proto('int PlatynXErrorHandler(void *display, void *event)');
export const XIOErrorHandlerProto = koffi.proto('int PlatynXIOErrorHandler(void *display)');
export const XIOErrorExitHandlerProto = koffi.proto('void PlatynXIOErrorExitHandler(void *display, void *data)');

type Out<T> = [T];

export interface Xlib {
  XOpenDisplay(name: string | null): Pointer;
  XCloseDisplay(display: Display): number;
  XDisplayString(display: Display): string;
  XDefaultScreen(display: Display): number;
  XDefaultRootWindow(display: Display): number;
  XDisplayWidth(display: Display, screen: number): number;
  XDisplayHeight(display: Display, screen: number): number;
  XDefaultDepth(display: Display, screen: number): number;
  XDefaultColormap(display: Display, screen: number): number;
  XInternAtom(display: Display, name: string, onlyIfExists: number): number;
  XGetAtomName(display: Display, atom: number): Pointer;
  XFree(data: bigint): number;
  XSync(display: Display, discard: number): number;
  XFlush(display: Display): number;
  XPending(display: Display): number;
  XNextEvent(display: Display, event: Uint8Array): number;
  XSetErrorHandler(handler: bigint | null): Pointer;
  XSetIOErrorHandler(handler: bigint | null): Pointer;
  /** libX11 1.7 and later; undefined in older ones (there an I/O error always ends the process). */
  XSetIOErrorExitHandler: ((display: Display, handler: bigint | null, data: bigint | null) => void) | undefined;
  XGetWindowProperty(
    display: Display,
    window: number,
    property: number,
    offset: number,
    length: number,
    deleteProperty: number,
    reqType: number,
    actualType: Out<number>,
    actualFormat: Out<number>,
    nitems: Out<number>,
    bytesAfter: Out<number>,
    data: Out<Pointer>,
  ): number;
  XChangeProperty(
    display: Display,
    window: number,
    property: number,
    type: number,
    format: number,
    mode: number,
    data: Uint8Array,
    nelements: number,
  ): number;
  XSendEvent(display: Display, window: number, propagate: number, mask: number, event: Uint8Array): number;
  XQueryPointer(
    display: Display,
    window: number,
    root: Out<number>,
    child: Out<number>,
    rootX: Out<number>,
    rootY: Out<number>,
    winX: Out<number>,
    winY: Out<number>,
    mask: Out<number>,
  ): number;
  XQueryTree(
    display: Display,
    window: number,
    root: Out<number>,
    parent: Out<number>,
    children: Out<Pointer>,
    count: Out<number>,
  ): number;
  XGetGeometry(
    display: Display,
    drawable: number,
    root: Out<number>,
    x: Out<number>,
    y: Out<number>,
    width: Out<number>,
    height: Out<number>,
    border: Out<number>,
    depth: Out<number>,
  ): number;
  XTranslateCoordinates(
    display: Display,
    src: number,
    dest: number,
    x: number,
    y: number,
    destX: Out<number>,
    destY: Out<number>,
    child: Out<number>,
  ): number;
  XGetWindowAttributes(display: Display, window: number, attributes: object): number;
  XGetImage(
    display: Display,
    drawable: number,
    x: number,
    y: number,
    width: number,
    height: number,
    planeMask: number,
    format: number,
  ): Pointer;
  XDestroyImage(image: bigint): number;
  XCreateWindow(
    display: Display,
    parent: number,
    x: number,
    y: number,
    width: number,
    height: number,
    borderWidth: number,
    depth: number,
    windowClass: number,
    visual: Pointer,
    valueMask: number,
    attributes: XSetWindowAttributesValue | null,
  ): number;
  XDestroyWindow(display: Display, window: number): number;
  XMapRaised(display: Display, window: number): number;
  XUnmapWindow(display: Display, window: number): number;
  XRaiseWindow(display: Display, window: number): number;
  XMoveResizeWindow(display: Display, window: number, x: number, y: number, width: number, height: number): number;
  XIconifyWindow(display: Display, window: number, screen: number): number;
  XSetInputFocus(display: Display, window: number, revertTo: number, time: number): number;
  XAllocColor(
    display: Display,
    colormap: number,
    color: { pixel: number; red: number; green: number; blue: number },
  ): number;
  XStringToKeysym(name: string): number;
  XKeysymToString(keysym: number): string | null;
  XKeysymToKeycode(display: Display, keysym: number): number;
  XDisplayKeycodes(display: Display, min: Out<number>, max: Out<number>): number;
  XGetKeyboardMapping(display: Display, first: number, count: number, perKeycode: Out<number>): Pointer;
  XChangeKeyboardMapping(
    display: Display,
    first: number,
    perKeycode: number,
    keysyms: BigUint64Array,
    count: number,
  ): number;
  XResourceManagerString(display: Display): string | null;
  XGetSelectionOwner(display: Display, selection: number): number;
  /** The 256 keys' states as a bit vector (32 bytes): bit k of byte k/8 is set while keycode k is down. */
  XQueryKeymap(display: Display, keys: Uint8Array): number;
  XSetSelectionOwner(display: Display, selection: number, owner: number, time: number): number;
  XGrabPointer(
    display: Display,
    window: number,
    ownerEvents: number,
    eventMask: number,
    pointerMode: number,
    keyboardMode: number,
    confineTo: number,
    cursor: number,
    time: number,
  ): number;
  XUngrabPointer(display: Display, time: number): number;
  XGrabKey(
    display: Display,
    keycode: number,
    modifiers: number,
    window: number,
    ownerEvents: number,
    pointerMode: number,
    keyboardMode: number,
  ): number;
  XUngrabKey(display: Display, keycode: number, modifiers: number, window: number): number;
  XCreateFontCursor(display: Display, shape: number): number;
  XFreeCursor(display: Display, cursor: number): number;
}

let cached: Xlib | undefined;

function optionalFunction<T>(declareIt: () => T): T | undefined {
  try {
    return declareIt();
  } catch {
    return undefined;
  }
}

/** Loads libX11 once per process; throws InspectorError('provider-unavailable') when it is missing. */
export function loadXlib(): Xlib {
  if (cached) return cached;
  const lib = loadLibrary('libX11.so.6', 'libx11-6', 'the X11 platform');
  const f = <T>(prototype: string) => declare<T>(lib, prototype);
  cached = {
    XOpenDisplay: f('void *XOpenDisplay(const char *name)'),
    XCloseDisplay: f('int XCloseDisplay(void *display)'),
    XDisplayString: f('const char *XDisplayString(void *display)'),
    XDefaultScreen: f('int XDefaultScreen(void *display)'),
    XDefaultRootWindow: f('unsigned long XDefaultRootWindow(void *display)'),
    XDisplayWidth: f('int XDisplayWidth(void *display, int screen)'),
    XDisplayHeight: f('int XDisplayHeight(void *display, int screen)'),
    XDefaultDepth: f('int XDefaultDepth(void *display, int screen)'),
    XDefaultColormap: f('unsigned long XDefaultColormap(void *display, int screen)'),
    XInternAtom: f('unsigned long XInternAtom(void *display, const char *name, int onlyIfExists)'),
    XGetAtomName: f('void *XGetAtomName(void *display, unsigned long atom)'),
    XFree: f('int XFree(void *data)'),
    XSync: f('int XSync(void *display, int discard)'),
    XFlush: f('int XFlush(void *display)'),
    XPending: f('int XPending(void *display)'),
    XNextEvent: f('int XNextEvent(void *display, _Out_ uint8_t *event)'),
    XSetErrorHandler: f('void *XSetErrorHandler(void *handler)'),
    XSetIOErrorHandler: f('void *XSetIOErrorHandler(void *handler)'),
    XSetIOErrorExitHandler: optionalFunction(() =>
      f('void XSetIOErrorExitHandler(void *display, void *handler, void *data)'),
    ),
    XGetWindowProperty: f(
      'int XGetWindowProperty(void *display, unsigned long window, unsigned long property, long offset, long length, ' +
        'int deleteProperty, unsigned long reqType, _Out_ unsigned long *actualType, _Out_ int *actualFormat, ' +
        '_Out_ unsigned long *nitems, _Out_ unsigned long *bytesAfter, _Out_ void **data)',
    ),
    XChangeProperty: f(
      'int XChangeProperty(void *display, unsigned long window, unsigned long property, unsigned long type, ' +
        'int format, int mode, const uint8_t *data, int nelements)',
    ),
    XSendEvent: f('int XSendEvent(void *display, unsigned long window, int propagate, long mask, uint8_t *event)'),
    XQueryPointer: f(
      'int XQueryPointer(void *display, unsigned long window, _Out_ unsigned long *root, _Out_ unsigned long *child, ' +
        '_Out_ int *rootX, _Out_ int *rootY, _Out_ int *winX, _Out_ int *winY, _Out_ unsigned int *mask)',
    ),
    XQueryTree: f(
      'int XQueryTree(void *display, unsigned long window, _Out_ unsigned long *root, _Out_ unsigned long *parent, ' +
        '_Out_ void **children, _Out_ unsigned int *count)',
    ),
    XGetGeometry: f(
      'int XGetGeometry(void *display, unsigned long drawable, _Out_ unsigned long *root, _Out_ int *x, _Out_ int *y, ' +
        '_Out_ unsigned int *width, _Out_ unsigned int *height, _Out_ unsigned int *border, _Out_ unsigned int *depth)',
    ),
    XTranslateCoordinates: f(
      'int XTranslateCoordinates(void *display, unsigned long src, unsigned long dest, int x, int y, ' +
        '_Out_ int *destX, _Out_ int *destY, _Out_ unsigned long *child)',
    ),
    XGetWindowAttributes: f(
      'int XGetWindowAttributes(void *display, unsigned long window, _Out_ PlatynXWindowAttributes *attributes)',
    ),
    XGetImage: f(
      'void *XGetImage(void *display, unsigned long drawable, int x, int y, unsigned int width, unsigned int height, ' +
        'unsigned long planeMask, int format)',
    ),
    XDestroyImage: f('int XDestroyImage(void *image)'),
    XCreateWindow: f(
      'unsigned long XCreateWindow(void *display, unsigned long parent, int x, int y, unsigned int width, ' +
        'unsigned int height, unsigned int borderWidth, int depth, unsigned int windowClass, void *visual, ' +
        'unsigned long valueMask, PlatynXSetWindowAttributes *attributes)',
    ),
    XDestroyWindow: f('int XDestroyWindow(void *display, unsigned long window)'),
    XMapRaised: f('int XMapRaised(void *display, unsigned long window)'),
    XUnmapWindow: f('int XUnmapWindow(void *display, unsigned long window)'),
    XRaiseWindow: f('int XRaiseWindow(void *display, unsigned long window)'),
    XMoveResizeWindow: f(
      'int XMoveResizeWindow(void *display, unsigned long window, int x, int y, unsigned int width, unsigned int height)',
    ),
    XIconifyWindow: f('int XIconifyWindow(void *display, unsigned long window, int screen)'),
    XSetInputFocus: f('int XSetInputFocus(void *display, unsigned long window, int revertTo, unsigned long time)'),
    XAllocColor: f('int XAllocColor(void *display, unsigned long colormap, _Inout_ PlatynXColor *color)'),
    XStringToKeysym: f('unsigned long XStringToKeysym(const char *name)'),
    XKeysymToString: f('const char *XKeysymToString(unsigned long keysym)'),
    XKeysymToKeycode: f('uint8_t XKeysymToKeycode(void *display, unsigned long keysym)'),
    XDisplayKeycodes: f('int XDisplayKeycodes(void *display, _Out_ int *min, _Out_ int *max)'),
    XGetKeyboardMapping: f('void *XGetKeyboardMapping(void *display, uint8_t first, int count, _Out_ int *perKeycode)'),
    XChangeKeyboardMapping: f(
      'int XChangeKeyboardMapping(void *display, int first, int perKeycode, unsigned long *keysyms, int count)',
    ),
    XResourceManagerString: f('const char *XResourceManagerString(void *display)'),
    XQueryKeymap: f('int XQueryKeymap(void *display, _Out_ uint8_t *keys)'),
    XGetSelectionOwner: f('unsigned long XGetSelectionOwner(void *display, unsigned long selection)'),
    XSetSelectionOwner: f(
      'int XSetSelectionOwner(void *display, unsigned long selection, unsigned long owner, unsigned long time)',
    ),
    XGrabPointer: f(
      'int XGrabPointer(void *display, unsigned long window, int ownerEvents, unsigned int eventMask, ' +
        'int pointerMode, int keyboardMode, unsigned long confineTo, unsigned long cursor, unsigned long time)',
    ),
    XUngrabPointer: f('int XUngrabPointer(void *display, unsigned long time)'),
    XGrabKey: f(
      'int XGrabKey(void *display, int keycode, unsigned int modifiers, unsigned long window, int ownerEvents, ' +
        'int pointerMode, int keyboardMode)',
    ),
    XUngrabKey: f('int XUngrabKey(void *display, int keycode, unsigned int modifiers, unsigned long window)'),
    XCreateFontCursor: f('unsigned long XCreateFontCursor(void *display, unsigned int shape)'),
    XFreeCursor: f('int XFreeCursor(void *display, unsigned long cursor)'),
  };
  return cached;
}

export { copyBytes, readStruct, readULongs };
