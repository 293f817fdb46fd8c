/**
 * The shell's security settings in one place, as plain data, so a static test can check them (issue: the Electron
 * window options and the Content-Security-Policy). No electron import here.
 */

/** The renderer is served from this privileged scheme, never from file:// or the network. */
export const APP_SCHEME = 'platynui';
export const APP_ORIGIN = `${APP_SCHEME}://inspector`;
export const APP_ENTRY = `${APP_ORIGIN}/index.html`;

/** The IPC channel the preload and the main process share; nothing else is exposed. */
export const API_CHANNEL = 'platynui:api';

/** The shell's page may load only its own files; it talks to the runtime over IPC, so no network at all. */
export const SHELL_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "object-src 'none'",
].join('; ');

export interface WindowState {
  x?: number;
  y?: number;
  width: number;
  height: number;
  maximized: boolean;
}

export const DEFAULT_WINDOW_STATE: WindowState = { width: 1400, height: 900, maximized: false };

/**
 * BrowserWindow options: isolated, sandboxed, no Node in the page, the preload the only bridge; DevTools only when
 * the shell was started with `--devtools`.
 */
export function mainWindowOptions(preload: string, state: WindowState, devTools = false) {
  return {
    ...(state.x !== undefined && state.y !== undefined ? { x: state.x, y: state.y } : {}),
    width: state.width,
    height: state.height,
    minWidth: 640,
    minHeight: 400,
    show: false,
    title: 'PlatynUI Inspector',
    backgroundColor: '#1e1e1e',
    autoHideMenuBar: true,
    webPreferences: {
      preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
      navigateOnDragDrop: false,
      spellcheck: false,
      devTools,
    },
  } as const;
}

/** Options for the privileged scheme (standard and secure, so 'self' and fetch work; no bypass of the CSP). */
export const APP_SCHEME_PRIVILEGES = {
  standard: true,
  secure: true,
  supportFetchAPI: true,
  corsEnabled: false,
  bypassCSP: false,
  stream: true,
} as const;

/** Accepts a remembered window state only when it is sane (numbers, sizes large enough). */
export function parseWindowState(data: unknown): WindowState {
  if (!data || typeof data !== 'object') return { ...DEFAULT_WINDOW_STATE };
  const record = data as { [key: string]: unknown };
  const num = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? Math.round(value) : undefined);
  const width = num(record.width);
  const height = num(record.height);
  const x = num(record.x);
  const y = num(record.y);
  return {
    width: width !== undefined && width >= 400 ? width : DEFAULT_WINDOW_STATE.width,
    height: height !== undefined && height >= 300 ? height : DEFAULT_WINDOW_STATE.height,
    ...(x !== undefined && y !== undefined ? { x, y } : {}),
    maximized: record.maximized === true,
  };
}

/** True when a URL is the app's own page (navigation to anything else is blocked). */
export function isAppUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === `${APP_SCHEME}:` && parsed.host === 'inspector';
  } catch {
    return false;
  }
}

export const DEFAULT_PICK_SHORTCUT = 'CommandOrControl+Shift+F12';

/**
 * An outline window for the highlight where the platform has none (not X11, where transparent windows need a
 * compositor): transparent, click-through (setIgnoreMouseEvents), always on top, never focused, no JavaScript.
 */
export function overlayWindowOptions(rect: { x: number; y: number; width: number; height: number }) {
  return {
    x: Math.round(rect.x),
    y: Math.round(rect.y),
    width: Math.max(1, Math.round(rect.width)),
    height: Math.max(1, Math.round(rect.height)),
    show: false,
    frame: false,
    transparent: true,
    alwaysOnTop: true,
    focusable: false,
    skipTaskbar: true,
    resizable: false,
    movable: false,
    hasShadow: false,
    webPreferences: {
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      javascript: false,
      webSecurity: true,
    },
  } as const;
}

export const OVERLAY_PAGE = `data:text/html;charset=utf-8,${encodeURIComponent(
  '<!doctype html><html><body style="margin:0;height:100vh;box-sizing:border-box;border:3px solid #ff3b30;background:transparent"></body></html>',
)}`;

/** At most this many outline windows at once (more matches are outlined by their first ones). */
export const MAX_OVERLAYS = 64;
