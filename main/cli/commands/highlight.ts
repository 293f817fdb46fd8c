import type { Command } from 'commander';
import { InspectorError } from '../../../shared/model/errors.js';
import { applicationsReached } from '../../../shared/xpath/fast/reach.js';
import type { Rect } from '../../../shared/model/values.js';
import { addRuntimeOptions } from '../options.js';
import { clearHighlights, enterRunningHighlight } from '../highlight-registry.js';
import type { RuntimeCliOptions } from '../command-runtime.js';
import { visibleBounds } from '../../services/bounds.js';
import { collectRects, device, formatRect, holdUntil, nodesFor, openDevices, parseDuration } from './device-support.js';

interface HighlightOptions extends RuntimeCliOptions {
  rect?: Rect[];
  duration?: number;
  clear?: boolean;
}

const overlaps = (a: Rect, b: Rect) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

export function registerHighlight(program: Command): void {
  addRuntimeOptions(
    program
      .command('highlight')
      .description('outline elements (or rectangles) on screen; lives until the highlight is cleared')
      .argument('[xpath]', 'elements to outline (their Bounds)')
      .option('--rect <x,y,w,h>', 'a desktop rectangle to outline (repeatable)', collectRects)
      .option('--duration <ms>', 'clear after this many milliseconds (default: until Ctrl-C)', parseDuration)
      .option(
        '--clear',
        'end every running highlight of this user on this display (alone, or before showing a new one)',
      ),
  ).action(async (xpath: string | undefined, options: HighlightOptions) => {
    const showing = Boolean(xpath) || (options.rect?.length ?? 0) > 0;
    if (!showing && !options.clear) throw new InspectorError('usage', 'highlight needs an <xpath>, --rect or --clear');
    if (!showing && options.duration !== undefined) {
      throw new InspectorError('usage', '--duration goes with a highlight to show (an <xpath> or --rect)');
    }
    if (options.clear) {
      const cleared = await clearHighlights(process.env.DISPLAY);
      process.stdout.write(`cleared ${cleared.ended.length} highlight${cleared.ended.length === 1 ? '' : 's'}\n`);
      if (cleared.running.length > 0) {
        throw new InspectorError(
          'action-failed',
          `highlight ${cleared.running.join(', ')} did not end within the wait after SIGTERM`,
        );
      }
      if (!showing) return;
    }
    const devices = await openDevices(options, Boolean(xpath), {
      ...(xpath ? { prefetch: applicationsReached(xpath) } : {}),
    });
    try {
      const rects = [...(options.rect ?? [])];
      if (xpath) {
        rects.push(...(await visibleBounds(await nodesFor(devices.tree!, xpath))));
        if (rects.length === 0) throw new InspectorError('action-failed', `no element of ${xpath} has bounds`);
      }
      const desktop = await devices.platform.desktopInfo?.describe();
      if (desktop && !rects.some((rect) => overlaps(rect, desktop.bounds))) {
        const b = desktop.bounds;
        throw new InspectorError(
          'invalid-input',
          `nothing to highlight: ${rects.map(formatRect).join(' ')} ${rects.length > 1 ? 'lie' : 'lies'} outside the desktop ${b.x},${b.y},${b.width}x${b.height}`,
        );
      }
      const highlight = device(devices.platform, 'highlight');
      await highlight.highlight({ rects, ...(options.duration !== undefined ? { durationMs: options.duration } : {}) });
      const unregister = enterRunningHighlight(process.env.DISPLAY);
      try {
        for (const rect of rects) process.stdout.write(`${formatRect(rect)}\n`);
        if (options.duration === undefined) process.stderr.write('highlighting; press Ctrl-C to clear\n');
        await holdUntil(devices.platform, options.duration);
        await highlight.clear();
      } finally {
        unregister();
      }
    } finally {
      await devices.close();
    }
  });
}
