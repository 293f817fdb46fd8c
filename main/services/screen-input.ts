import { InspectorError } from '../../shared/model/errors.js';
import type { Point } from '../../shared/model/values.js';
import type { PointerButton } from '../core/platform.js';
import { KeyboardController } from '../runtime/input/keyboard.js';
import type { PointerOverrides } from '../runtime/input/pointer-motion.js';
import { PointerController } from '../runtime/input/pointer.js';
import type { Runtime } from '../runtime/runtime.js';

/**
 * Interact mode of the Screen panel: clicks, wheel steps and typed keys sent to the desktop through the platform's
 * pointer and keyboard, as a user at the machine would. The pointer jumps (no motion path): a remote user already
 * moved their own pointer to the point.
 */
const JUMP: PointerOverrides = { motion: 'direct', afterMoveDelayMs: 0, afterClickDelayMs: 0, verifyMove: false };

function pointerOf(runtime: Runtime): PointerController {
  const device = runtime.platform?.pointer;
  if (!device) throw new InspectorError('unsupported', 'this platform has no pointer device to click with');
  return new PointerController(device);
}

export async function clickAt(runtime: Runtime, point: Point, button: PointerButton, count: number): Promise<void> {
  const pointer = pointerOf(runtime);
  if (count === 1) await pointer.click(point, button, JUMP);
  else await pointer.multiClick(point, button, count, JUMP);
}

export async function scrollAt(runtime: Runtime, point: Point, deltaX: number, deltaY: number): Promise<void> {
  await pointerOf(runtime).scroll({ x: deltaX, y: deltaY }, point, JUMP);
}

/** Types a keyboard sequence (text and `<Ctrl+a>` chords) into the focused window. */
export async function typeKeys(runtime: Runtime, keys: string): Promise<void> {
  const device = runtime.platform?.keyboard;
  if (!device) throw new InspectorError('unsupported', 'this platform has no keyboard device to type with');
  await new KeyboardController(device).type(keys);
}
