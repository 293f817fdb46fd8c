// Benchmark: what every CLI command costs before it reaches the desktop, timed the way a user runs it (whole
// processes): `list-providers` and `query 'count(/*)' --provider mock` against `node -e 0`, the floor of any Node
// process, in the same run. Goals (issue 13): list-providers under 200 ms, the mock query under 300 ms.
//
//   node dist/bench/cli-startup.js [--runs 5]
import { cli, goal, line, NODE_FLOOR, numberOption, printLoad, ratio, report, timeRoundRobin } from './_cli.js';

async function main(): Promise<void> {
  const runs = numberOption('--runs', 5);
  printLoad('before');
  const [floor, listProviders, mockQuery] = await timeRoundRobin(
    [
      ['node.e0', NODE_FLOOR],
      ['cli.listProviders', cli(['list-providers'])],
      ['cli.query.countTop.mock', cli(['query', 'count(/*)', '--provider', 'mock'])],
    ],
    runs,
  );
  printLoad('after');
  const floorMs = report(floor!).medianMs;
  const list = report(listProviders!);
  const query = report(mockQuery!);
  line('cli.listProviders.overFloor', list.medianMs - floorMs, 'ms');
  line('cli.query.countTop.mock.overFloor', query.medianMs - floorMs, 'ms');
  ratio('ratio.floor.listProviders', listProviders!, floor!);
  ratio('ratio.floor.query.countTop.mock', mockQuery!, floor!);
  goal('list-providers under 200 ms', list.medianMs < 200, `${list.medianMs.toFixed(0)} ms`);
  goal("query 'count(/*)' --provider mock under 300 ms", query.medianMs < 300, `${query.medianMs.toFixed(0)} ms`);
  process.stdout.write(`# ${runs} runs each, round-robin, whole processes, medians\n`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : String(error));
  process.exitCode = 1;
});
