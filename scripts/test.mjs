#!/usr/bin/env node
// `npm test`: build, lint, unit tests, then ONE virtual desktop session for the desktop tests, then a summary.
//
//   node scripts/test.mjs                      everything (what CI runs)
//   node scripts/test.mjs --unit               build + lint + unit tests only
//   node scripts/test.mjs --desktop            build + desktop tests only (skips lint)
//   node scripts/test.mjs --no-build --no-lint  reuse dist/, skip lint
//   node scripts/test.mjs <filter...>          only test files whose dist path contains one of the filters
//   node scripts/test.mjs --timeout 300000     per-test timeout in ms (default 300000; Node 20 applies it to each test
//                                              file as a whole too, so it also bounds a file)
//   node scripts/test.mjs --total-timeout 1080000  stop everything after this long (default 18 minutes) and fail
//   node scripts/test.mjs --name-pattern REGEX  only tests whose name matches (node --test-name-pattern)
//
// Unit tests: dist/**/test/*.test.js that are not *.desktop.test.js and not under dist/e2e.
// Desktop tests: dist/**/*.desktop.test.js and dist/e2e/**/*.test.js, run with the session's environment
// (DISPLAY, DBUS_SESSION_BUS_ADDRESS, ...) and concurrency 1. Any failure makes the exit code non-zero.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const dist = path.join(root, 'dist');

function parseArgs(argv) {
  const opts = {
    unit: true,
    desktop: true,
    build: true,
    lint: true,
    filters: [],
    timeout: 300000,
    totalTimeout: 18 * 60000,
    namePattern: [],
  };
  let only;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--unit') only = only === 'desktop' ? 'both' : 'unit';
    else if (a === '--desktop') only = only === 'unit' ? 'both' : 'desktop';
    else if (a === '--no-build') opts.build = false;
    else if (a === '--no-lint') opts.lint = false;
    else if (a === '--timeout') opts.timeout = Number(argv[++i]);
    else if (a.startsWith('--timeout=')) opts.timeout = Number(a.slice(10));
    else if (a === '--total-timeout') opts.totalTimeout = Number(argv[++i]);
    else if (a.startsWith('--total-timeout=')) opts.totalTimeout = Number(a.slice(16));
    else if (a === '--name-pattern') opts.namePattern.push(argv[++i]);
    else if (a.startsWith('--name-pattern=')) opts.namePattern.push(a.slice(15));
    else if (a === '-h' || a === '--help') {
      process.stdout.write(
        readFileSync(fileURLToPath(import.meta.url), 'utf8')
          .split('\n')
          .slice(1)
          .filter((line, i, all) => all.slice(0, i + 1).every((l) => l.startsWith('//')))
          .join('\n') + '\n',
      );
      process.exit(0);
    } else if (a.startsWith('-')) {
      process.stderr.write(`unknown option ${a} (see --help)\n`);
      process.exit(2);
    } else opts.filters.push(a);
  }
  if (only === 'unit') opts.desktop = false;
  if (only === 'desktop') {
    opts.unit = false;
    opts.lint = false;
  }
  if (!(opts.timeout > 0) || !(opts.totalTimeout > 0)) {
    process.stderr.write('--timeout and --total-timeout need a positive number of milliseconds\n');
    process.exit(2);
  }
  return opts;
}

function walk(dir, out = []) {
  if (!existsSync(dir)) return out;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(p, out);
    else if (entry.isFile() && entry.name.endsWith('.test.js')) out.push(p);
  }
  return out.sort();
}

/** True when the compiled test still has its TypeScript source (tsc never deletes outputs of removed files). */
function hasSource(rel) {
  const base = path.join(root, rel.replace(/\.js$/, ''));
  return ['.ts', '.tsx', '.mts'].some((ext) => existsSync(base + ext));
}

function classify() {
  const unit = [];
  const desktop = [];
  const stale = [];
  for (const file of walk(dist)) {
    const rel = path.relative(dist, file).split(path.sep).join('/');
    if (!hasSource(rel)) {
      stale.push(rel);
      continue;
    }
    const isE2e = rel.startsWith('e2e/');
    if (rel.endsWith('.desktop.test.js') || isE2e) desktop.push(file);
    else if (/(^|\/)test\/[^/]+\.test\.js$/.test(rel)) unit.push(file);
  }
  return { unit, desktop, stale };
}

// Wall-clock limit for the whole run: a child still running at the deadline is stopped and counts as failed.
let deadline = Infinity;

function run(command, args, { env = process.env } = {}) {
  return new Promise((resolve) => {
    if (Date.now() >= deadline) {
      process.stderr.write(`total time limit reached: not running ${command}\n`);
      resolve(124);
      return;
    }
    const child = spawn(command, args, { cwd: root, env, stdio: 'inherit' });
    let timedOut = false;
    const limit = setTimeout(() => {
      timedOut = true;
      process.stderr.write(`\ntotal time limit reached: stopping ${command} ${args.slice(-1)[0] ?? ''}\n`);
      child.kill('SIGTERM');
      setTimeout(() => child.exitCode === null && child.kill('SIGKILL'), 10000).unref();
    }, deadline - Date.now());
    const forward = (sig) => child.exitCode === null && child.kill(sig);
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    child.once('error', (err) => {
      process.stderr.write(`could not run ${command}: ${err.message}\n`);
      resolve(127);
    });
    child.once('exit', (code, sig) => {
      clearTimeout(limit);
      process.removeListener('SIGINT', forward);
      process.removeListener('SIGTERM', forward);
      resolve(timedOut ? 124 : sig ? 128 + 1 : (code ?? 1));
    });
  });
}

/** Counts from a TAP file written by node --test (the final "# pass N" lines). */
function tapCounts(file) {
  const counts = {};
  try {
    for (const m of readFileSync(file, 'utf8').matchAll(/^# (tests|pass|fail|cancelled|skipped|todo) (\d+)$/gm)) {
      counts[m[1]] = Number(m[2]);
    }
  } catch {
    // no TAP output (the runner did not start)
  }
  return counts;
}

async function nodeTest(files, { env, timeout, namePattern, concurrency, tapFile }) {
  const args = [
    '--test',
    `--test-timeout=${timeout}`,
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    '--test-reporter=tap',
    `--test-reporter-destination=${tapFile}`,
  ];
  if (concurrency) args.push(`--test-concurrency=${concurrency}`);
  for (const p of namePattern) args.push(`--test-name-pattern=${p}`);
  const code = await run(process.execPath, [...args, ...files], { env });
  return { code, counts: tapCounts(tapFile) };
}

const fmt = (ms) => (ms >= 1000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`);

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const steps = [];
  const tmp = mkdtempSync(path.join(tmpdir(), 'platynui-test-'));
  const t0 = performance.now();
  deadline = Date.now() + opts.totalTimeout;
  let failed = false;

  const step = async (name, fn) => {
    const t = performance.now();
    process.stdout.write(`\n=== ${name}\n`);
    let result;
    try {
      result = await fn();
    } catch (err) {
      process.stderr.write(`${name}: ${err?.stack ?? err}\n`);
      result = { code: 1, note: err?.message ?? String(err) };
    }
    const ms = performance.now() - t;
    const ok = result.code === 0;
    if (!ok) failed = true;
    steps.push({ name, ok, ms, note: result.note ?? '' });
    return ok;
  };

  try {
    if (opts.build && !(await step('build', async () => ({ code: await run('npm', ['run', '--silent', 'build']) })))) {
      return finish();
    }
    if (opts.lint) await step('lint', async () => ({ code: await run('npm', ['run', '--silent', 'lint']) }));

    const { unit, desktop, stale } = classify();
    if (stale.length) {
      process.stdout.write(
        `\nnot running compiled tests whose source is gone: ${stale.map((f) => 'dist/' + f).join(' ')}\n`,
      );
    }
    const pick = (files) =>
      opts.filters.length ? files.filter((f) => opts.filters.some((flt) => f.includes(flt))) : files;
    const unitFiles = pick(unit);
    const desktopFiles = pick(desktop);
    const note = (files, counts) =>
      `${files.length} files, ${counts.pass ?? 0}/${counts.tests ?? 0} passed` +
      (counts.fail ? `, ${counts.fail} failed` : '') +
      (counts.cancelled ? `, ${counts.cancelled} cancelled` : '') +
      (counts.skipped ? `, ${counts.skipped} skipped` : '') +
      (counts.todo ? `, ${counts.todo} todo` : '');

    if (opts.unit) {
      await step('unit tests', async () => {
        if (unitFiles.length === 0) {
          // An explicit filter that matches nothing is a mistake; no unit tests at all is not.
          return { code: opts.filters.length && !desktopFiles.length ? 1 : 0, note: 'no unit test files' };
        }
        const r = await nodeTest(unitFiles, {
          env: process.env,
          timeout: opts.timeout,
          namePattern: opts.namePattern,
          tapFile: path.join(tmp, 'unit.tap'),
        });
        return { code: r.code, note: note(unitFiles, r.counts) };
      });
    }

    if (opts.desktop && desktopFiles.length > 0) {
      const { startDesktopSession } = await import('./desktop/session.mjs');
      let session;
      const started = await step('desktop session start', async () => {
        session = await startDesktopSession({ log: (m) => process.stdout.write(m + '\n') });
        return { code: 0, note: `${session.display}, ${JSON.stringify(session.timings)}` };
      });
      if (started) {
        try {
          await step('desktop tests', async () => {
            const r = await nodeTest(desktopFiles, {
              env: session.env,
              timeout: opts.timeout,
              namePattern: opts.namePattern,
              concurrency: 1,
              tapFile: path.join(tmp, 'desktop.tap'),
            });
            return { code: r.code, note: note(desktopFiles, r.counts) };
          });
        } finally {
          await step('desktop session stop', async () => {
            const r = await session.stop();
            return { code: 0, note: r.killedHard.length ? `SIGKILL needed for ${r.killedHard.join(' ')}` : '' };
          });
        }
      }
    } else if (opts.desktop) {
      steps.push({
        name: 'desktop tests',
        ok: !opts.filters.length || unitFiles.length > 0,
        ms: 0,
        note: 'no desktop test files',
      });
      if (opts.filters.length && !unitFiles.length) failed = true;
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return finish();

  function finish() {
    const total = performance.now() - t0;
    process.stdout.write('\n=== summary\n');
    for (const s of steps) {
      process.stdout.write(`${s.ok ? 'ok  ' : 'FAIL'}  ${s.name.padEnd(22)} ${fmt(s.ms).padStart(8)}  ${s.note}\n`);
    }
    process.stdout.write(`${failed ? 'FAILED' : 'passed'} in ${fmt(total)}\n`);
    return failed ? 1 : 0;
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`${err?.stack ?? err}\n`);
    process.exit(1);
  },
);
