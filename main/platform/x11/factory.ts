import { InspectorError, toInspectorError } from '../../../shared/model/errors.js';
import { loadXRandr, type XRandr } from '../../../native/x11/xrandr.js';
import { loadXShape, type XShape } from '../../../native/x11/xshape.js';
import { loadXTest, type XTest } from '../../../native/x11/xtest.js';
import type { PlatformBundle, PlatformConfig, PlatformFactory } from '../../core/platform.js';
import { X11Connection } from './connection.js';
import { X11DesktopInfoDevice } from './desktop-info.js';
import { X11HighlightDevice } from './highlight.js';
import { X11KeyboardDevice } from './keyboard.js';
import { X11PointerDevice } from './pointer.js';
import { X11PointerCaptureDevice } from './pointer-capture.js';
import { X11InputRecorderDevice } from './input-recorder.js';
import { X11ScreenChanges } from './screen-changes.js';
import { X11ScreenshotDevice } from './screenshot.js';
import { canServeX11, detectDisplayServer, type DisplayServerInfo } from './display-server.js';
import { X11WindowManager } from './window-manager.js';

const allDevices = [
  'pointer',
  'keyboard',
  'screenshot',
  'highlight',
  'windowManager',
  'desktopInfo',
  'pointerCapture',
  'inputRecorder',
];

export interface X11PlatformBundle extends PlatformBundle {
  readonly session: DisplayServerInfo;
  readonly connection: X11Connection;
}

function unavailableBundle(session: DisplayServerInfo): PlatformBundle {
  const reason =
    session.kind === 'wayland'
      ? `${session.reason}; the X11 platform needs an X server (start XWayland or an X11 session)`
      : session.reason;
  return {
    id: 'x11',
    unavailable: allDevices.map((device) => ({ device, reason })),
    shutdown: async () => {},
  };
}

function optional<T>(
  load: () => T,
  check: (value: T) => boolean,
  device: string,
  why: string,
  missing: Array<{ device: string; reason: string }>,
): T | undefined {
  try {
    const value = load();
    if (check(value)) return value;
    missing.push({ device, reason: why });
  } catch (error) {
    missing.push({ device, reason: toInspectorError(error).message });
  }
  return undefined;
}

/**
 * This process and those named in PLATYNUI_EXCLUDE_PIDS (comma-separated): their windows are never picked, so the
 * inspector does not find itself (the Electron shell runs the runtime in a utility process and names its main one).
 */
export function ownProcessIds(env: PlatformConfig['env']): Set<number> {
  const ids = new Set([process.pid]);
  for (const part of (env.PLATYNUI_EXCLUDE_PIDS ?? '').split(',')) {
    const id = Number(part.trim());
    if (Number.isInteger(id) && id > 0) ids.add(id);
  }
  return ids;
}

/**
 * Adds processes to `ids` for a while (PlatformBundle.excludeProcesses): each added until every exclusion naming it
 * is undone; the ids there from the start stay.
 */
export function processExcluder(ids: Set<number>): (processIds: readonly number[]) => () => void {
  const fixed = new Set(ids);
  const holds = new Map<number, number>();
  return (processIds) => {
    const added = [...new Set(processIds)].filter((id) => !fixed.has(id));
    for (const id of added) {
      holds.set(id, (holds.get(id) ?? 0) + 1);
      ids.add(id);
    }
    let undone = false;
    return () => {
      if (undone) return;
      undone = true;
      for (const id of added) {
        const left = (holds.get(id) ?? 1) - 1;
        if (left > 0) holds.set(id, left);
        else {
          holds.delete(id);
          ids.delete(id);
        }
      }
    };
  };
}

/** Builds the X11 devices of one runtime, all on one X connection. */
export async function createX11Platform(config: PlatformConfig): Promise<PlatformBundle> {
  const session = detectDisplayServer(config.env);
  if (session.kind === 'wayland' || session.kind === 'none' || !session.display) return unavailableBundle(session);
  const connection = X11Connection.open(session.display);
  const unavailable: Array<{ device: string; reason: string }> = [];
  const d = connection.display;
  const xtest = optional<XTest>(
    loadXTest,
    (x) => x.XTestQueryExtension(d, [0], [0], [0], [0]) !== 0,
    'pointer',
    'the X server has no XTest extension',
    unavailable,
  );
  if (!xtest) unavailable.push({ device: 'keyboard', reason: unavailable.at(-1)!.reason });
  const randr = optional<XRandr>(
    loadXRandr,
    (x) => x.XRRQueryExtension(d, [0], [0]) !== 0,
    'monitors',
    'no RandR: the screen is reported as one monitor',
    unavailable,
  );
  const shape = optional<XShape>(
    loadXShape,
    (x) => x.XShapeQueryExtension(d, [0], [0]) !== 0,
    'highlight-input-passthrough',
    'no SHAPE: clicks on the highlight frame hit the frame',
    unavailable,
  );

  const desktopInfo = new X11DesktopInfoDevice(connection, randr);
  const desktopBounds = () => desktopInfo.bounds();
  const highlight = new X11HighlightDevice(connection, shape, desktopBounds);
  const ownIds = ownProcessIds(config.env);
  const windowManager = new X11WindowManager(connection, () => highlight.ownWindows(), ownIds);
  const keyboard = xtest ? new X11KeyboardDevice(connection, xtest) : undefined;
  const pointer = xtest ? new X11PointerDevice(connection, xtest) : undefined;
  const pointerCapture = new X11PointerCaptureDevice(session.display, (point) => windowManager.ownsTopLevelAt(point));
  const recordMissing = X11InputRecorderDevice.missing(connection);
  if (recordMissing) unavailable.push({ device: 'inputRecorder', reason: recordMissing });
  const inputRecorder = recordMissing
    ? undefined
    : new X11InputRecorderDevice(session.display, {
        ownWindowAt: (point) => windowManager.ownsTopLevelAt(point),
        ownsActiveWindow: () => windowManager.ownsActiveWindow(),
      });
  const damageMissing = X11ScreenChanges.missing(connection);
  if (damageMissing) unavailable.push({ device: 'screenChanges', reason: `${damageMissing}: the Screen view polls` });
  const screenChanges = damageMissing ? undefined : new X11ScreenChanges(session.display);
  let down = false;
  const bundle: X11PlatformBundle = {
    id: 'x11',
    session,
    connection,
    ...(pointer ? { pointer } : {}),
    ...(keyboard ? { keyboard } : {}),
    screenshot: new X11ScreenshotDevice(connection, desktopBounds, screenChanges),
    highlight,
    windowManager,
    desktopInfo,
    pointerCapture,
    ...(inputRecorder ? { inputRecorder } : {}),
    unavailable,
    excludeProcesses: processExcluder(ownIds),
    whenLost: () => connection.whenLost(),
    async shutdown() {
      if (down) return;
      down = true;
      try {
        await pointerCapture.releaseAll();
        await inputRecorder?.stopAll();
        screenChanges?.stopAll();
        // Also stops the highlight's clear timer; on a lost connection the server took the windows and keymap along.
        await highlight.clear();
        // Keys pressed on purpose (`keyboard press <Shift>`) stay down; only borrowed keycodes are given back.
        if (!connection.isLost) keyboard?.restoreSlots();
      } finally {
        connection.close();
      }
    },
  };
  return bundle;
}

export const x11PlatformFactory: PlatformFactory = {
  id: 'x11',
  optIn: false,
  /**
   * Serves X11 sessions and XWayland, and also Wayland without XWayland: there the bundle has no devices and lists
   * each as unavailable with the reason, instead of the runtime silently coming up without a platform.
   */
  canServe: canServeX11,
  async create(config: PlatformConfig): Promise<PlatformBundle> {
    try {
      return await createX11Platform(config);
    } catch (error) {
      throw error instanceof InspectorError ? error : toInspectorError(error);
    }
  },
};
