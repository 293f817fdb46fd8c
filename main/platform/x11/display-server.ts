/**
 * Which graphical session this process runs in: XDG_SESSION_TYPE first, then WAYLAND_DISPLAY, then DISPLAY.
 * The X11 platform drives X11 sessions and XWayland; on Wayland without XWayland it can only say what is missing.
 */

export type DisplayServerKind = 'x11' | 'xwayland' | 'wayland' | 'none';

export interface DisplayServerInfo {
  kind: DisplayServerKind;
  /** The X display to open (x11 and xwayland). */
  display: string | undefined;
  /** How the kind was decided, in words a person understands. */
  reason: string;
}

type Env = { readonly [name: string]: string | undefined };

const nonEmpty = (value: string | undefined) => (value && value.trim() !== '' ? value.trim() : undefined);

export function detectDisplayServer(env: Env): DisplayServerInfo {
  const type = nonEmpty(env.XDG_SESSION_TYPE)?.toLowerCase();
  const wayland = nonEmpty(env.WAYLAND_DISPLAY);
  const display = nonEmpty(env.DISPLAY);
  if (type === 'x11') {
    if (display) return { kind: 'x11', display, reason: `XDG_SESSION_TYPE=x11, DISPLAY=${display}` };
    return { kind: 'none', display: undefined, reason: 'XDG_SESSION_TYPE=x11 but DISPLAY is not set' };
  }
  if (type === 'wayland' || (type === undefined && wayland) || (type !== undefined && !isX11Type(type) && wayland)) {
    const why = type === 'wayland' ? 'XDG_SESSION_TYPE=wayland' : `WAYLAND_DISPLAY=${wayland}`;
    if (display) return { kind: 'xwayland', display, reason: `${why}, XWayland on DISPLAY=${display}` };
    return { kind: 'wayland', display: undefined, reason: `${why} and no DISPLAY: Wayland without XWayland` };
  }
  if (display) return { kind: 'x11', display, reason: `DISPLAY=${display}` };
  return {
    kind: 'none',
    display: undefined,
    reason: 'no graphical session (XDG_SESSION_TYPE, WAYLAND_DISPLAY and DISPLAY unset)',
  };
}

function isX11Type(type: string): boolean {
  return type === 'x11';
}

/** Whether the X11 platform serves this environment: any graphical session (see x11PlatformFactory). */
export function canServeX11(config: { env: { readonly [name: string]: string | undefined } }): boolean {
  return detectDisplayServer(config.env).kind !== 'none';
}
