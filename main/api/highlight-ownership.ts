import type { Rect } from '../../shared/model/values.js';
import type { HighlightDevice } from '../core/platform.js';

export type HighlightFallback = (request: { rects: Rect[]; durationMs?: number } | undefined) => void;

/**
 * The one on-screen highlight and the connection that owns it: a connection that goes away clears only its own.
 * Draws through the platform's highlight device, else through the fallback (the Electron shell's overlay windows
 * outside X11).
 */
export class HighlightOwnership {
  owner: object | undefined;
  fallback: HighlightFallback | undefined;

  constructor(private readonly device: () => HighlightDevice | undefined) {}

  async show(owner: object, rects: Rect[], durationMs?: number): Promise<boolean> {
    const device = this.device();
    if (!device) {
      if (!this.fallback) return false;
      this.owner = owner;
      this.fallback(rects.length > 0 ? { rects, ...(durationMs ? { durationMs } : {}) } : undefined);
      return true;
    }
    this.owner = owner;
    if (rects.length === 0) await device.clear();
    else await device.highlight({ rects, ...(durationMs ? { durationMs } : {}) });
    return true;
  }

  /** Clears the highlight; with an owner, only when that owner's highlight is the one shown. */
  async clear(owner?: object): Promise<boolean> {
    if (owner && this.owner !== owner) return false;
    this.owner = undefined;
    const device = this.device();
    if (!device) {
      this.fallback?.(undefined);
      return this.fallback !== undefined;
    }
    await device.clear().catch(() => undefined);
    return true;
  }
}
