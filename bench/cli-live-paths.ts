// Benchmark: the CLI's AT-SPI paths the way a user runs them, on a Chromium page with about 10,000 accessible nodes
// (e2e/fixtures/table.html), against libatspi (python3-gi, scripts/atspi-reference.py: what Accerciser and dogtail
// use) in the same run. Every sample is a new process timed whole (spawn to exit), peak memory from /usr/bin/time.
// Cold: the first accessibility client after Chromium started with the page loaded (a fresh Chromium per sample);
// warm: later runs against the same Chromium. Prints `name value unit` lines (medians), the ratios, the load and
// `node -e 0` as the floor.
//
//   node dist/bench/cli-live-paths.js [--rows 2000] [--repeat 5] [--cli bin/platynui-inspector] [--vs <other cli>]
//                                     [--only <path prefixes>]
// --vs times a second build of the CLI (e.g. the main branch's bin/platynui-inspector) beside this one, interleaved,
// and compares what both wrote for each warm snapshot of the same page (`output.<path>.differs` counts the rounds
// where the bytes differ; 0 when they are the same).
// --only snapshot.all,query.button times only the paths whose names start with one of these (libatspi's warm walks
// always run; its cold walk only with a cold path). query.button.scoped.listener: the scoped query against a Chromium
// started while this process had AT-SPI listeners registered (as with Orca running): its cache stays partial.
// Runs inside the desktop session when DISPLAY and DBUS_SESSION_BUS_ADDRESS are set, else starts its own.
import os from 'node:os';
import path from 'node:path';
import '../main/backends/linux.js';
import type { LaunchedApp } from '../e2e/support/apps.js';
import { fixtureUrl, launchChromium, tableReadyTitle } from '../e2e/support/apps.js';
import { atspiReferenceScript, projectRoot, SYSTEM_PYTHON } from '../e2e/support/paths.js';
import { Runtime } from '../main/runtime/runtime.js';
import { joinDesktopSession, median, numberOption, runProcess } from './_cli.js';
import { print } from './_stats.js';

interface Run {
  ms: number;
  /** Peak resident memory in MB (from /usr/bin/time), NaN when unavailable. */
  peakMb: number;
  stdout: string;
  stderr: string;
  code: number;
}

/** One process run to its end, timed whole; a failed run is a value (code 1, its error in stderr), not a throw. */
async function run(command: string, args: readonly string[]): Promise<Run> {
  try {
    return { ...(await runProcess({ command, args })), code: 0 };
  } catch (error) {
    return { ms: Number.NaN, peakMb: Number.NaN, stdout: '', stderr: String(error), code: 1 };
  }
}

/** The `--stats` line a command wrote to stderr. */
function statsOf(result: Run): { evalMs: number; nodesFetched: number; results: number } | undefined {
  const line = result.stderr
    .split('\n')
    .reverse()
    .find((l) => l.startsWith('{"evalMs"'));
  return line ? (JSON.parse(line) as { evalMs: number; nodesFetched: number; results: number }) : undefined;
}

class Samples {
  private readonly values = new Map<string, number[]>();
  add(name: string, value: number): void {
    if (!Number.isFinite(value)) return;
    let list = this.values.get(name);
    if (!list) this.values.set(name, (list = []));
    list.push(value);
  }
  median(name: string): number {
    return median(this.values.get(name) ?? []);
  }
  names(): string[] {
    return [...this.values.keys()];
  }
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const option = (name: string): string | undefined => {
    const index = argv.indexOf(name);
    return index >= 0 ? argv[index + 1] : undefined;
  };
  const rows = numberOption('--rows', 2000);
  const repeat = numberOption('--repeat', 5);
  const clis: Array<{ label: string; bin: string }> = [
    { label: 'cli', bin: path.resolve(option('--cli') ?? path.join(projectRoot(), 'bin', 'platynui-inspector')) },
  ];
  const vs = option('--vs');
  const only = option('--only')
    ?.split(',')
    .map((prefix) => prefix.trim())
    .filter((prefix) => prefix !== '');
  const wanted = (name: string) => !only || only.some((prefix) => name.startsWith(prefix));
  if (vs) clis.push({ label: 'vs', bin: path.resolve(vs) });

  const stopSession = await joinDesktopSession();
  const url = fixtureUrl('table.html', { rows });
  const title = tableReadyTitle(rows);
  const launch = (): Promise<LaunchedApp> => launchChromium(process.env, url, { title });
  const node = process.execPath;
  const cli = (bin: string, args: readonly string[]) => run(node, [bin, ...args]);
  const libatspi = (pid: number, fields: string) =>
    run(SYSTEM_PYTHON, [atspiReferenceScript(), '--pid', String(pid), '--summary', '--fields', fields]);
  const app = `app:Application[@Name='Chromium']`;
  const button = `//Button[@Name='Find me']`;
  // On screen (the button lies below the table): what pick, highlight and locate work on.
  const visible = `//CheckBox[@Name='Select item 3']`;
  const s = new Samples();
  const failures = new Map<string, number>();
  const record = (name: string, result: Run) => {
    if (result.code !== 0) {
      // A failed sample (an application not answering on a loaded machine) is counted and reported, not timed.
      failures.set(name, (failures.get(name) ?? 0) + 1);
      process.stderr.write(`${name} failed (${result.code}): ${result.stderr.trim().slice(0, 300)}\n`);
      return result;
    }
    s.add(`${name}.ms`, result.ms);
    s.add(`${name}.peak`, result.peakMb);
    const stats = statsOf(result);
    if (stats) {
      s.add(`${name}.evalMs`, stats.evalMs);
      s.add(`${name}.nodesFetched`, stats.nodesFetched);
    }
    return result;
  };
  const loads: number[] = [];
  /** Per snapshot path: the rounds in which the two builds wrote different output (with --vs). */
  const differs = new Map<string, number>();
  try {
    for (let round = 0; round < repeat; round++) {
      loads.push(os.loadavg()[0] as number);
      record('node.floor', await run(node, ['-e', '0']));
      // Cold: a fresh Chromium for each cold sample (libatspi's cold walk included).
      const coldPaths: Array<[string, string[]]> = [
        ['snapshot.default.cold', ['snapshot', app, '--format', 'json']],
        ['query.button.cold', ['query', button, '--stats']],
        ['query.button.scoped.cold', ['query', `${app}${button}`, '--stats']],
      ];
      for (const { label, bin } of clis) {
        for (const [name, args] of coldPaths) {
          if (!wanted(name)) continue;
          const page = await launch();
          try {
            record(`${label}.${name}`, await cli(bin, args));
          } finally {
            await page.stop();
          }
        }
      }
      // A Chromium started while a listener is registered (Orca, an inspector already running): at-spi2-atk builds
      // its Cache at the start and never again, so every client loads the page by GetTree and per-node calls.
      if (wanted('query.button.scoped.listener')) {
        const listener = await Runtime.create({ providers: ['atspi'], platform: 'none' });
        const stopListening = listener.registerEventSink(() => undefined);
        try {
          const page = await launch();
          try {
            // The first client after the start finds the page less ready: the builds take turns at being first.
            for (const { label, bin } of round % 2 === 0 ? clis : [...clis].reverse()) {
              record(`${label}.query.button.scoped.listener`, await cli(bin, ['query', `${app}${button}`, '--stats']));
            }
          } finally {
            await page.stop();
          }
        } finally {
          stopListening();
          await listener.shutdown();
        }
      }
      if (wanted('snapshot.default.cold')) {
        const coldPage = await launch();
        try {
          record('libatspi.snapshot.cold', await libatspi(coldPage.pid, 'role,name,states'));
        } finally {
          await coldPage.stop();
        }
      }
      // Warm: one Chromium, walked once, then every command in turn.
      const page = await launch();
      try {
        await libatspi(page.pid, 'role,name,states');
        const bounds = await cli(clis[0]!.bin, ['query', `${visible}/@Bounds`, '--format', 'json']);
        type Found = Array<{ value: { x: number; y: number; width: number; height: number } }>;
        const rect = (bounds.code === 0 ? (JSON.parse(bounds.stdout) as Found) : [])[0]?.value;
        const at = rect ? `${Math.round(rect.x + rect.width / 2)},${Math.round(rect.y + rect.height / 2)}` : '10,10';
        record('libatspi.snapshot.warm', await libatspi(page.pid, 'role,name,states'));
        record('libatspi.snapshot.warm.extents', await libatspi(page.pid, 'role,name,states,extents'));
        const commands: Array<[string, string[]]> = [
          ['query.count-top', ['query', 'count(/*)', '--stats']],
          ['query.button.warm', ['query', button, '--stats']],
          ['query.button.scoped', ['query', `${app}${button}`, '--stats']],
          ['query.button.scoped-anywhere', ['query', `//${app}${button}`, '--stats']],
          ['snapshot.default.warm', ['snapshot', app, '--format', 'json']],
          ['snapshot.all.warm', ['snapshot', app, '--format', 'json', '--attrs', 'all']],
          ['pick', ['pick', '--at', at, '--stats']],
          ['locate.one', ['locate', visible]],
          ['highlight.one', ['highlight', visible, '--duration', '1']],
        ];
        // Each command by every build in turn (the order alternating per round), so load hits them alike.
        const order = round % 2 === 0 ? clis : [...clis].reverse();
        for (const [name, args] of commands) {
          if (!wanted(name)) continue;
          const outputs: string[] = [];
          for (const { label, bin } of order) {
            const result = record(`${label}.${name}`, await cli(bin, args));
            if (result.code === 0) outputs.push(result.stdout);
          }
          // The same page read by both builds: a snapshot must come out byte for byte the same.
          if (vs && name.startsWith('snapshot.') && outputs.length === 2) {
            differs.set(name, (differs.get(name) ?? 0) + (outputs[0] === outputs[1] ? 0 : 1));
          }
        }
      } finally {
        await page.stop();
      }
    }
  } finally {
    await stopSession?.();
  }
  print('load.1min.median', median(loads), 'load');
  for (const [name, count] of failures) print(`${name}.failures`, count, 'runs');
  for (const [name, count] of differs) print(`output.${name}.differs`, count, 'runs');
  print('rows', rows, 'rows');
  print('repeat', repeat, 'samples');
  for (const name of s.names()) {
    const unit = name.endsWith('.peak') ? 'MB' : name.endsWith('.nodesFetched') ? 'nodes' : 'ms';
    print(name, s.median(name), unit);
  }
  const ratio = (name: string, baseline: string, ours: string) => {
    const value = s.median(baseline) / s.median(ours);
    if (Number.isFinite(value)) print(name, value, 'x');
  };
  for (const { label } of clis) {
    ratio(
      `ratio.${label}.snapshot.default.cold.vs-libatspi`,
      'libatspi.snapshot.cold.ms',
      `${label}.snapshot.default.cold.ms`,
    );
    ratio(
      `ratio.${label}.snapshot.default.warm.vs-libatspi`,
      'libatspi.snapshot.warm.ms',
      `${label}.snapshot.default.warm.ms`,
    );
    ratio(
      `ratio.${label}.snapshot.all.warm.vs-libatspi-extents`,
      'libatspi.snapshot.warm.extents.ms',
      `${label}.snapshot.all.warm.ms`,
    );
  }
  if (vs) {
    for (const name of s.names().filter((n) => n.startsWith('cli.') && n.endsWith('.ms'))) {
      ratio(`ratio.vs-over-cli.${name.slice(4)}`, `vs.${name.slice(4)}`, name);
    }
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
