import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { decodePng } from '../../runtime/screenshot-png.js';
import { parsePoint, parseRect } from '../commands/device-support.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const bin = path.join(root, 'bin/platynui-inspector');

function cli(...args: string[]) {
  const env = { ...process.env };
  delete env.DISPLAY;
  const result = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 60_000, env });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('device commands (mock platform)', () => {
  it('parses points and rectangles, rejecting malformed ones', () => {
    assert.deepEqual(parsePoint('10,-20.5'), { x: 10, y: -20.5 });
    assert.deepEqual(parseRect(' 1, 2,30,40 '), { x: 1, y: 2, width: 30, height: 40 });
    assert.throws(() => parsePoint('10'), /x,y/);
    assert.throws(() => parsePoint('a,b'), /x,y/);
    assert.throws(() => parsePoint('1,'), /x,y/);
    assert.throws(() => parseRect('1,2,0,4'), /positive size/);
    assert.throws(() => parseRect('1,2,3'), /x,y,width,height/);
  });

  it('clicks an element at its activation point', () => {
    const result = cli('pointer', 'click', "//CheckBox[@Name='Auto save']", '--provider', 'mock');
    assert.equal(result.status, 0, result.stderr);
    assert.equal(result.stdout, 'click 360,130\n');
  });

  it('writes a PNG of the requested size', () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'cli-shot-')), 'mock.png');
    const result = cli('screenshot', file, '--rect', '0,0,30,20', '--provider', 'mock');
    assert.equal(result.status, 0, result.stderr);
    const png = decodePng(readFileSync(file));
    assert.equal(png.width, 30);
    assert.equal(png.height, 20);
  });

  it('highlights the bounds of the elements an XPath selects', () => {
    const result = cli('highlight', "//CheckBox[@Name='Auto save']", '--duration', '10', '--provider', 'mock');
    assert.equal(result.status, 0, result.stderr);
    assert.equal(result.stdout, '300,115,120,30\n');
  });

  it('reports usage errors with exit code 2', () => {
    const cases: Array<[string[], RegExp]> = [
      [['highlight', '--provider', 'mock'], /needs an <xpath>, --rect or --clear/],
      [['highlight', '--rect', '1,2,3', '--provider', 'mock'], /x,y,width,height/],
      [['pointer', 'click', '--provider', 'mock'], /needs an <xpath> or --at/],
      [['pointer', 'drag', '--at', '1,1', '--provider', 'mock'], /needs --to/],
      [['pointer', 'click', '--at', '1,1', '--button', 'fourth', '--provider', 'mock'], /left, middle or right/],
      [['pointer', 'move', '--at', '1,1', '--motion', 'teleport', '--provider', 'mock'], /--motion must be one of/],
      [['keyboard', 'shout', 'x', '--provider', 'mock'], /keyboard action must be one of/],
      [['keyboard', 'type', '--provider', 'mock'], /needs a <sequence>/],
      [['keyboard', 'type', 'a<Ctrl+', '--provider', 'mock'], /unterminated shortcut/],
      [['window', '--activate', '--provider', 'mock'], /needs an <xpath>/],
      [['window', '--list', '--close', '--provider', 'mock'], /exactly one of/],
      [['pick', '--provider', 'mock'], /--at/],
    ];
    for (const [args, message] of cases) {
      const result = cli(...args);
      assert.equal(result.status, 2, `${args.join(' ')}: ${result.stderr}`);
      assert.match(result.stderr, message, args.join(' '));
    }
  });

  it('names an unsupported key with its position (exit 1)', () => {
    const result = cli('keyboard', 'type', 'ab<Bogus>', '--provider', 'mock');
    assert.equal(result.status, 1);
    assert.match(result.stderr, /unsupported key "Bogus" at column 4/);
  });
});
