import { readFileSync } from 'node:fs';
import os from 'node:os';
import type { Rect } from '../../../shared/model/values.js';
import { koffi } from '../../../native/x11/load.js';
import { XRRMonitorInfo, type XRandr, type XRRMonitorInfoValue } from '../../../native/x11/xrandr.js';
import type { DesktopInfo, DesktopInfoDevice, Monitor } from '../../core/platform.js';
import type { X11Connection } from './connection.js';

/** Smallest rectangle containing all the given ones. */
export function unionRects(rects: readonly Rect[]): Rect {
  if (rects.length === 0) return { x: 0, y: 0, width: 0, height: 0 };
  const x1 = Math.min(...rects.map((r) => r.x));
  const y1 = Math.min(...rects.map((r) => r.y));
  const x2 = Math.max(...rects.map((r) => r.x + r.width));
  const y2 = Math.max(...rects.map((r) => r.y + r.height));
  return { x: x1, y: y1, width: x2 - x1, height: y2 - y1 };
}

/** The Xft.dpi resource divided by 96: the scale X11 desktops apply (1 when it is not set). */
export function scaleFromResources(resources: string | null | undefined): number {
  const match = /^Xft\.dpi:\s*([0-9.]+)\s*$/m.exec(resources ?? '');
  const dpi = match ? Number(match[1]) : NaN;
  return Number.isFinite(dpi) && dpi > 0 ? Math.round((dpi / 96) * 100) / 100 : 1;
}

function osVersion(): string {
  try {
    const release = readFileSync('/etc/os-release', 'utf8');
    const pretty = /^PRETTY_NAME="?([^"\n]*)"?$/m.exec(release)?.[1];
    if (pretty) return `${pretty} (Linux ${os.release()})`;
  } catch {
    // Fall through to the kernel version alone.
  }
  return `Linux ${os.release()}`;
}

/** Monitors from RandR 1.5 (XRRGetMonitors); without RandR the screen is one monitor. */
export class X11DesktopInfoDevice implements DesktopInfoDevice {
  constructor(
    private readonly connection: X11Connection,
    private readonly randr: XRandr | undefined,
  ) {}

  monitors(): Monitor[] {
    const c = this.connection;
    const scale = scaleFromResources(c.xlib.XResourceManagerString(c.display));
    const screen: Rect = {
      x: 0,
      y: 0,
      width: c.xlib.XDisplayWidth(c.display, c.screen),
      height: c.xlib.XDisplayHeight(c.display, c.screen),
    };
    if (this.randr) {
      const count: [number] = [0];
      const list = c.tolerant(() => this.randr!.XRRGetMonitors(c.display, c.root, 1, count), true);
      if (list && count[0] > 0) {
        try {
          const size = koffi.sizeof(XRRMonitorInfo);
          const monitors: Monitor[] = [];
          for (let i = 0; i < count[0]; i++) {
            const info = koffi.decode(list, i * size, XRRMonitorInfo) as XRRMonitorInfoValue;
            const name = c.atomName(Number(info.name)) || `monitor-${i}`;
            monitors.push({
              id: name,
              name,
              bounds: { x: info.x, y: info.y, width: info.width, height: info.height },
              isPrimary: info.primary !== 0,
              scale,
            });
          }
          if (!monitors.some((m) => m.isPrimary) && monitors[0]) monitors[0].isPrimary = true;
          return monitors;
        } finally {
          this.randr.XRRFreeMonitors(list);
        }
      }
    }
    return [{ id: 'screen-0', name: 'screen-0', bounds: screen, isPrimary: true, scale }];
  }

  /** The desktop: the X screen, which contains every monitor. */
  bounds(): Rect {
    const c = this.connection;
    return {
      x: 0,
      y: 0,
      width: c.xlib.XDisplayWidth(c.display, c.screen),
      height: c.xlib.XDisplayHeight(c.display, c.screen),
    };
  }

  async describe(): Promise<DesktopInfo> {
    const monitors = this.monitors();
    return {
      technology: 'X11',
      osVersion: osVersion(),
      name: `X11 display ${this.connection.displayName}`,
      bounds: unionRects([this.bounds(), ...monitors.map((m) => m.bounds)]),
      monitors,
    };
  }
}
