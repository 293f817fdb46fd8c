import { writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import type { Rect } from '../../../shared/model/values.js';
import { encodePng } from '../../runtime/screenshot-png.js';
import { addRuntimeOptions } from '../options.js';
import type { RuntimeCliOptions } from '../command-runtime.js';
import { device, openDevices, parseRect } from './device-support.js';

interface ScreenshotOptions extends RuntimeCliOptions {
  rect?: Rect;
}

export function registerScreenshot(program: Command): void {
  addRuntimeOptions(
    program
      .command('screenshot')
      .description('capture the desktop (or a rectangle of it) as a PNG file')
      .argument('<file>', 'PNG file to write')
      .option('--rect <x,y,w,h>', 'only this desktop rectangle (clipped to the desktop)', parseRect),
  ).action(async (file: string, options: ScreenshotOptions) => {
    const devices = await openDevices(options, false);
    try {
      const shot = await device(devices.platform, 'screenshot').capture(options.rect);
      writeFileSync(file, encodePng(shot));
      process.stdout.write(`${file} ${shot.width}x${shot.height}\n`);
    } finally {
      await devices.close();
    }
  });
}
