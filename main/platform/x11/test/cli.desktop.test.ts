import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { decodePng } from '../../../runtime/screenshot-png.js';
import { HIGHLIGHT_COLOR } from '../highlight.js';
import { ProbeApp, projectRoot, runTool, sleep, useDesktop, xwininfo, type TestDesktop } from './support/desktop.js';

const bin = path.join(projectRoot, 'bin/platynui-inspector');

describe('CLI device commands on the X11 desktop', () => {
  let desktop: TestDesktop;
  let probe: ProbeApp;
  const cli = (...args: string[]) => {
    const result = spawnSync(process.execPath, [bin, ...args], { env: desktop.env, encoding: 'utf8', timeout: 60_000 });
    return { status: result.status, stdout: result.stdout, stderr: result.stderr };
  };
  const frame = "//Frame[@Name='CLI probe']";

  before(async () => {
    desktop = await useDesktop();
    probe = await ProbeApp.start(desktop.env, 'CLI probe', 140, 110, true);
  });

  after(async () => {
    await probe?.stop();
    await desktop?.stop();
  });

  it('screenshot writes the PNG the X server shows', () => {
    // The probe's label: a part of the screen nothing else draws on.
    const label = probe.ready.label!;
    const rect = { x: label.x, y: label.y, width: Math.min(200, label.width), height: Math.min(60, label.height) };
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'x11-cli-')), 'shot.png');
    const result = cli('screenshot', file, '--rect', `${rect.x},${rect.y},${rect.width},${rect.height}`);
    assert.equal(result.status, 0, result.stderr);
    assert.equal(result.stdout, `${file} ${rect.width}x${rect.height}\n`);
    const ours = decodePng(readFileSync(file));
    const crop = `${rect.width}x${rect.height}+${rect.x}+${rect.y}`;
    const theirs = decodePng(runTool('import', ['-window', 'root', '-crop', crop, 'png:-'], desktop.env));
    assert.equal(ours.width, rect.width);
    assert.equal(Buffer.from(ours.pixels).equals(Buffer.from(theirs.pixels)), true);
    assert.ok(new Set(ours.pixels).size > 2, 'the label text is in the picture');
  });

  it('highlight --rect --duration shows the frame, then exits and the frame is gone', async () => {
    const child = spawn(process.execPath, [bin, 'highlight', '--rect', '700,500,80,40', '--duration', '1500'], {
      env: desktop.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    for (let i = 0; i < 200 && !stdout.includes('\n'); i++) await sleep(25);
    assert.equal(stdout, '700,500,80,40\n');
    const isFrame = () => {
      const shot = decodePng(runTool('import', ['-window', 'root', '-crop', '1x1+740+498', 'png:-'], desktop.env));
      return shot.pixels[0] === HIGHLIGHT_COLOR.red && shot.pixels[1] === HIGHLIGHT_COLOR.green;
    };
    assert.ok(isFrame(), 'the frame is on screen while the command runs');
    assert.equal(await exited, 0);
    assert.ok(!isFrame(), 'gone when the command has ended');
  });

  it('highlight refuses rectangles that are all off the desktop, and shows those that are partly on it', () => {
    const off = cli('highlight', '--rect', '5000,5000,10,10', '--rect', '-50,-50,10,10', '--duration', '10');
    assert.equal(off.status, 2, off.stderr);
    assert.match(off.stderr, /nothing to highlight: 5000,5000,10,10 -50,-50,10,10 lie outside the desktop 0,0,\d+x\d+/);
    const partly = cli('highlight', '--rect', '5000,5000,10,10', '--rect', '-5,-5,20,20', '--duration', '10');
    assert.equal(partly.status, 0, partly.stderr);
    assert.equal(partly.stdout, '5000,5000,10,10\n-5,-5,20,20\n');
  });

  it('pointer move and position agree with the X server', () => {
    assert.equal(cli('pointer', 'move', '--at', '321,123', '--motion', 'bezier').status, 0);
    assert.match(runTool('xdotool', ['getmouselocation'], desktop.env).toString(), /x:321 y:123 /);
    const position = cli('pointer', 'position', '--format', 'json');
    assert.deepEqual(JSON.parse(position.stdout), { x: 321, y: 123 });
    const bad = cli('pointer', 'wiggle', '--at', '1,1');
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /pointer action must be one of/);
  });

  it('window lists, moves and resizes the window of an element', () => {
    const listed = cli('window', '--list', '--format', 'json');
    assert.equal(listed.status, 0, listed.stderr);
    const windows = JSON.parse(listed.stdout) as Array<{ id: number; processId?: number; name: string }>;
    const mine = windows.find((w) => w.processId === probe.pid);
    assert.equal(mine?.name, 'CLI probe');
    const moved = cli('window', frame, '--move', '260', '190');
    assert.equal(moved.status, 0, moved.stderr);
    assert.match(moved.stdout, /"CLI probe" 260,190,/);
    assert.deepEqual([xwininfo(mine.id, desktop.env).x, xwininfo(mine.id, desktop.env).y], [260, 190]);
    const resized = cli('window', frame, '--resize', '420', '260');
    assert.equal(resized.status, 0, resized.stderr);
    const seen = xwininfo(mine.id, desktop.env);
    assert.deepEqual([seen.width, seen.height], [420, 260]);
    assert.equal(cli('window', frame, '--move', '1').status, 2);
  });

  it('focus and keyboard type put text into the real field', async () => {
    const focused = cli('focus', '//Text');
    assert.equal(focused.status, 0, focused.stderr);
    const typed = cli('keyboard', 'type', '<Ctrl+a><Delete>from the CLI <PLUS> ü');
    assert.equal(typed.status, 0, typed.stderr);
    await probe.waitForLast('text', (e) => e.text === 'from the CLI + ü', 5000);
    const list = cli('keyboard', 'list');
    assert.ok(list.stdout.split('\n').includes('Enter'));
    const unknown = cli('keyboard', 'type', 'x<NoSuchKey>');
    assert.equal(unknown.status, 1);
    assert.match(unknown.stderr, /unsupported key "NoSuchKey" at column 3/);
  });

  it('pick names the element on top as the same JSON node objects as query', async () => {
    const bounds = await probe.bounds();
    const check = bounds.check!;
    const picked = cli('pick', '--at', `${check.x + 30},${check.y + 8}`, '--format', 'json', '--stats');
    assert.equal(picked.status, 0, picked.stderr);
    const nodes = JSON.parse(picked.stdout) as Array<{ type: string; role: string; name: string; attributes: object }>;
    assert.equal(nodes.length, 1);
    assert.equal(nodes[0]!.type, 'node');
    assert.equal(nodes[0]!.role, 'CheckBox');
    assert.equal(nodes[0]!.name, 'Probe check box');
    assert.ok('Bounds' in nodes[0]!.attributes);
    const stats = JSON.parse(picked.stderr.trim().split('\n').at(-1)!) as { evalMs: number; results: number };
    assert.equal(stats.results, 1);
    assert.ok(stats.evalMs >= 0);
    const all = cli('pick', '--at', `${check.x + 30},${check.y + 8}`, '--all');
    assert.equal(all.status, 0, all.stderr);
    const lines = all.stdout.trim().split('\n');
    assert.equal(lines[0], 'CheckBox "Probe check box"');
    assert.ok(lines.includes('Frame "CLI probe"'), all.stdout);
  });
});
