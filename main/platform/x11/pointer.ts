import { InspectorError } from '../../../shared/model/errors.js';
import type { Point, Size } from '../../../shared/model/values.js';
import type { XTest } from '../../../native/x11/xtest.js';
import type { DoubleClickSettings, PointerButton, PointerDevice } from '../../core/platform.js';
import type { X11Connection } from './connection.js';
import { XSettingsFormatError, decodeXSettings, defaultDoubleClick, doubleClickFromSettings } from './xsettings.js';

const buttonNumbers: { [button in PointerButton]: number } = { left: 1, middle: 2, right: 3 };

/**
 * The desktop's double-click settings from its XSETTINGS manager (the owner of `_XSETTINGS_S<screen>`), read again
 * on every call: two round trips (about a tenth of a millisecond locally), so a changed setting (a new serial, a new
 * manager, a manager gone) is seen at the next click without listening for PropertyNotify. Without a manager, or
 * with data that does not decode, the defaults apply and `detail` says why.
 */
export function readDoubleClickSettings(c: X11Connection): DoubleClickSettings {
  const selectionName = `_XSETTINGS_S${c.screen}`;
  const selection = c.atom(selectionName, true);
  const owner =
    selection === 0
      ? 0
      : c.checkedReply('reading the XSETTINGS owner', () => c.xlib.XGetSelectionOwner(c.display, selection));
  if (owner === 0) return defaultDoubleClick(`no XSETTINGS manager owns ${selectionName}`);
  const where = `XSETTINGS manager 0x${owner.toString(16)}`;
  const property = c.property(owner, '_XSETTINGS_SETTINGS');
  if (!property) return defaultDoubleClick(`${where} has no _XSETTINGS_SETTINGS property`);
  if (property.format !== 8 || property.type !== c.atom('_XSETTINGS_SETTINGS', true)) {
    return defaultDoubleClick(
      `${where}: _XSETTINGS_SETTINGS has type ${c.atomName(property.type) || property.type} format ${property.format}, not _XSETTINGS_SETTINGS format 8`,
    );
  }
  try {
    return doubleClickFromSettings(decodeXSettings(property.bytes), where);
  } catch (error) {
    if (error instanceof XSettingsFormatError)
      return defaultDoubleClick(`${where}: malformed _XSETTINGS_SETTINGS: ${error.message}`);
    throw error;
  }
}

/** The pointer through XTest: absolute motion on the desktop, buttons 1-3, wheel buttons 4-7. */
export class X11PointerDevice implements PointerDevice {
  constructor(
    private readonly connection: X11Connection,
    private readonly xtest: XTest,
  ) {}

  async position(): Promise<Point> {
    const c = this.connection;
    const root: [number] = [0];
    const child: [number] = [0];
    const x: [number] = [0];
    const y: [number] = [0];
    const wx: [number] = [0];
    const wy: [number] = [0];
    const mask: [number] = [0];
    const ok = c.checkedReply('reading the pointer position', () =>
      c.xlib.XQueryPointer(c.display, c.root, root, child, x, y, wx, wy, mask),
    );
    if (!ok) throw new InspectorError('action-failed', 'the pointer is on another X screen');
    return { x: x[0], y: y[0] };
  }

  async moveTo(point: Point): Promise<void> {
    const c = this.connection;
    c.checked('moving the pointer', () =>
      this.xtest.XTestFakeMotionEvent(c.display, -1, Math.round(point.x), Math.round(point.y), 0),
    );
  }

  async press(button: PointerButton): Promise<void> {
    this.button(button, true);
  }

  async release(button: PointerButton): Promise<void> {
    this.button(button, false);
  }

  async scroll(deltaX: number, deltaY: number): Promise<void> {
    const c = this.connection;
    const click = (button: number, count: number) => {
      for (let i = 0; i < count; i++) {
        this.xtest.XTestFakeButtonEvent(c.display, button, 1, 0);
        this.xtest.XTestFakeButtonEvent(c.display, button, 0, 0);
      }
    };
    c.checked('scrolling', () => {
      const dy = Math.round(deltaY);
      const dx = Math.round(deltaX);
      click(dy < 0 ? 4 : 5, Math.abs(dy));
      click(dx < 0 ? 6 : 7, Math.abs(dx));
    });
  }

  doubleClickTimeMs(): number {
    return this.doubleClickSettings().timeMs;
  }

  doubleClickSize(): Size {
    return this.doubleClickSettings().size;
  }

  doubleClickSettings(): DoubleClickSettings {
    return readDoubleClickSettings(this.connection);
  }

  private button(button: PointerButton, press: boolean): void {
    const number = buttonNumbers[button];
    if (!number) throw new InspectorError('invalid-input', `unknown pointer button "${button}" (left, middle, right)`);
    const c = this.connection;
    c.checked(`${press ? 'pressing' : 'releasing'} the ${button} button`, () =>
      this.xtest.XTestFakeButtonEvent(c.display, number, press ? 1 : 0, 0),
    );
  }
}
