import { accessSync, chmodSync, constants } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { InspectorError } from '../../../shared/model/errors.js';
import { parseRecordingFormat, renderRecording, type RecordingFormat } from '../../../shared/recording/export.js';
import { describeStep } from '../../../shared/recording/steps.js';
import { Recorder } from '../../services/recorder.js';
import { addRuntimeOptions, parseMilliseconds } from '../options.js';
import { writeToFile } from '../snapshot-output.js';
import type { RuntimeCliOptions } from '../command-runtime.js';
import { holdUntil, openDevices } from './device-support.js';

interface RecordOptions extends RuntimeCliOptions {
  format: RecordingFormat;
  output?: string;
  duration?: number;
}

/** Fails before recording when the script could not be written (its directory missing or read-only). */
function checkWritable(file: string): void {
  const directory = path.dirname(path.resolve(file));
  try {
    accessSync(directory, constants.W_OK);
  } catch {
    throw new InspectorError('usage', `--output: cannot write "${file}": its directory does not exist or is read-only`);
  }
}

export function registerRecord(program: Command): void {
  addRuntimeOptions(
    program
      .command('record')
      .description(
        'record clicks and typing in the applications until Ctrl-C, SIGTERM or --duration, then write them as a script',
      )
      .option(
        '--format <format>',
        'robot, python, dogtail or cli (a shell script of this CLI)',
        parseRecordingFormat,
        'robot',
      )
      .option('--output <file>', 'write the script to this file (stdout then names it)')
      .option('--duration <ms>', 'stop recording after this long', parseMilliseconds('--duration', 0)),
  ).action(async (options: RecordOptions) => {
    if (options.output !== undefined) checkWritable(options.output);
    const devices = await openDevices(options, true);
    try {
      const { runtime, xpath } = devices.tree!;
      const recorder = await Recorder.start(runtime, xpath);
      const announced = new Set<number>();
      let limitSaid = false;
      recorder.onChange((steps) => {
        const { limitReached, maxSteps } = recorder.status();
        if (limitReached && !limitSaid) {
          limitSaid = true;
          process.stderr.write(`recording stopped at its limit of ${maxSteps} steps; stop with Ctrl-C to write them\n`);
        }
        for (const step of steps) {
          if (announced.has(step.id)) continue;
          announced.add(step.id);
          process.stderr.write(`recorded ${steps.indexOf(step) + 1}: ${describeStep(step)}\n`);
        }
      });
      process.stderr.write(`recording (${recorder.mechanism}); stop with Ctrl-C\n`);
      try {
        await holdUntil(devices.platform, options.duration);
      } finally {
        await recorder.stop();
      }
      const steps = recorder.steps();
      const { unattributed } = recorder.status();
      const script = renderRecording(options.format, steps);
      process.stderr.write(
        `recorded ${steps.length} steps${unattributed > 0 ? ` (${unattributed} inputs on no known element left out)` : ''}\n`,
      );
      if (options.output === undefined) {
        process.stdout.write(script);
        return;
      }
      await writeToFile(options.output, '--output', (target) => target.write(script));
      if (options.format !== 'robot') chmodSync(options.output, 0o755);
      process.stdout.write(`${options.output}\n`);
    } finally {
      await devices.close();
    }
  });
}
