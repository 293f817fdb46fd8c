import { InspectorError } from '../../../shared/model/errors.js';
import type { Point, Size } from '../../../shared/model/values.js';
import type { XTest } from '../../../native/x11/xtest.js';
import type { PointerButton, PointerDevice } from '../../runtime/platform.js';
import type { X11Connection } from './connection.js';

const buttonNumbers: { [button in PointerButton]: number } = { left: 1, middle: 2, right: 3 };

/** X11 has no system-wide double-click setting; these are GTK's and Qt's defaults. */
export const X11_DOUBLE_CLICK_TIME_MS = 400;
export const X11_DOUBLE_CLICK_DISTANCE_PX = 5;

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
    return X11_DOUBLE_CLICK_TIME_MS;
  }

  doubleClickSize(): Size {
    return { width: X11_DOUBLE_CLICK_DISTANCE_PX, height: X11_DOUBLE_CLICK_DISTANCE_PX };
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
