import { CurrentTime, InputOnly, PropModeReplace, StructureNotifyMask } from '../../../../../native/x11/xlib.js';
import { X11Connection } from '../../connection.js';
import { encodeXSettings, type XSettingValue } from '../../xsettings.js';

/**
 * A real XSETTINGS manager for the desktop tests, on an X connection of its own: an unmapped window that owns the
 * `_XSETTINGS_S<screen>` selection and holds `_XSETTINGS_SETTINGS`, announced to clients with the MANAGER message
 * the specification asks for. `publish` replaces the settings with a new serial (clients see a PropertyNotify);
 * `stop` destroys the window, which gives the selection up.
 */
export class TestXSettingsManager {
  private serial = 0;
  private stopped = false;

  private constructor(
    private readonly connection: X11Connection,
    readonly window: number,
    readonly selection: string,
  ) {}

  static start(display: string, settings: Array<[string, XSettingValue]>, byteOrder: 'lsb' | 'msb' = 'lsb') {
    const c = X11Connection.open(display);
    const selection = `_XSETTINGS_S${c.screen}`;
    const window = c.checked('creating the XSETTINGS manager window', () =>
      c.xlib.XCreateWindow(c.display, c.root, -10, -10, 1, 1, 0, 0, InputOnly, null, 0, null),
    );
    const manager = new TestXSettingsManager(c, window, selection);
    manager.publish(settings, byteOrder);
    const atom = c.atom(selection);
    c.checked('taking the XSETTINGS selection', () => c.xlib.XSetSelectionOwner(c.display, atom, window, CurrentTime));
    const owner = c.checkedReply('reading the XSETTINGS owner', () => c.xlib.XGetSelectionOwner(c.display, atom));
    if (owner !== window) {
      manager.stop();
      throw new Error(`another XSETTINGS manager (0x${owner.toString(16)}) owns ${selection}`);
    }
    c.sendClientMessage(c.root, 'MANAGER', [CurrentTime, atom, window, 0, 0], StructureNotifyMask);
    return manager;
  }

  /** Replaces the settings (a new serial each time). */
  publish(settings: Array<[string, XSettingValue]>, byteOrder: 'lsb' | 'msb' = 'lsb'): number {
    this.serial++;
    this.publishBytes(encodeXSettings({ byteOrder, serial: this.serial, settings }));
    return this.serial;
  }

  /** Writes any bytes as the property, malformed ones included. */
  publishBytes(bytes: Uint8Array): void {
    const c = this.connection;
    const name = c.atom('_XSETTINGS_SETTINGS');
    c.checked('writing _XSETTINGS_SETTINGS', () =>
      c.xlib.XChangeProperty(c.display, this.window, name, name, 8, PropModeReplace, bytes, bytes.length),
    );
  }

  stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    const c = this.connection;
    try {
      c.checked('destroying the XSETTINGS manager window', () => c.xlib.XDestroyWindow(c.display, this.window));
    } finally {
      c.close();
    }
  }
}

export const doubleClickSettings = (timeMs: number, distancePx?: number): Array<[string, XSettingValue]> => [
  ['Net/DoubleClickTime', { type: 'integer', value: timeMs }],
  ...(distancePx === undefined
    ? []
    : ([['Net/DoubleClickDistance', { type: 'integer', value: distancePx }]] as Array<[string, XSettingValue]>)),
  ['PlatynUI/Test', { type: 'string', value: 'a string GTK ignores' }],
  ['PlatynUI/TestColor', { type: 'color', value: { red: 0xffff, green: 0x8000, blue: 0, alpha: 0xffff } }],
];
