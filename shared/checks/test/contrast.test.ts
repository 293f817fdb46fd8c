import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  contrastRatio,
  estimateContrast,
  isLargeByTextAttributes,
  isLargeText,
  type PixelRegion,
  type Rgb,
} from '../contrast.js';
import { EMPTY_CHECK_CONFIG } from '../config.js';
import { runChecks } from '../engine.js';
import { attachFact, walkCheckTree } from '../model.js';
import { ESTIMATED_CONTRAST, isContrastCandidate } from '../rules/text-contrast.js';
import { inWindow, n } from './build.js';
import { uiBool, uiNumber, uiObject, uiString } from '../../model/values.js';

/** A region of `background` with a glyph-like block of `text`, anti-aliased by a blend around it, and a border. */
function region(text: Rgb, background: Rgb, border: Rgb = background, format: 'Rgba8' | 'Bgra8' = 'Rgba8') {
  const width = 60;
  const height = 20;
  const pixels = new Uint8Array(width * height * 4);
  const blend = { r: (text.r + background.r) >> 1, g: (text.g + background.g) >> 1, b: (text.b + background.b) >> 1 };
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const edge = x === 0 || y === 0 || x === width - 1 || y === height - 1;
      const glyph = x >= 10 && x < 30 && y >= 6 && y < 14;
      const halo = !glyph && x >= 9 && x < 31 && y >= 5 && y < 15;
      const c = edge ? border : glyph ? text : halo ? blend : background;
      const o = (y * width + x) * 4;
      const [first, third] = format === 'Rgba8' ? [c.r, c.b] : [c.b, c.r];
      pixels.set([first, c.g, third, 255], o);
    }
  }
  return { width, height, format, pixels } satisfies PixelRegion;
}

const white = { r: 255, g: 255, b: 255 };
const black = { r: 0, g: 0, b: 0 };

describe('text contrast from pixels', () => {
  test('WCAG ratios: black on white is 21:1, #aaa on white 2.32:1, a colour with itself 1:1', () => {
    assert.equal(Math.round(contrastRatio(black, white) * 100) / 100, 21);
    assert.equal(Math.floor(contrastRatio({ r: 170, g: 170, b: 170 }, white) * 100) / 100, 2.32);
    assert.equal(contrastRatio(white, white), 1);
  });

  test('the text colour and the background come from the pixels, blends and a border do not decide', () => {
    const grey = { r: 170, g: 170, b: 170 };
    for (const format of ['Rgba8', 'Bgra8'] as const) {
      const estimate = estimateContrast(region(grey, white, { r: 200, g: 200, b: 200 }, format))!;
      assert.deepEqual(estimate.background, white);
      assert.deepEqual(estimate.foreground, grey);
      assert.equal(Math.floor(estimate.ratio * 100) / 100, 2.32);
    }
    const dark = estimateContrast(region({ r: 51, g: 51, b: 51 }, white))!;
    assert.ok(dark.ratio > 12, `#333 on white: ${dark.ratio}`);
  });

  test('a region of one colour holds no text', () => {
    assert.equal(estimateContrast(region(white, white)), undefined);
  });

  test('large text: 18 pt, or 14 pt bold, from the text attributes', () => {
    assert.equal(isLargeText(18, false), true);
    assert.equal(isLargeText(14, true), true);
    assert.equal(isLargeText(14, false), false);
    assert.equal(isLargeText(undefined, true), false);
    assert.equal(isLargeByTextAttributes({ size: '18pt' }), true);
    assert.equal(isLargeByTextAttributes({ size: '14', weight: '700' }), true);
    assert.equal(isLargeByTextAttributes({ 'font-size': '24px' }), true);
    assert.equal(isLargeByTextAttributes({ size: '12pt', weight: 'bold' }), false);
    assert.equal(isLargeByTextAttributes({}), false);
  });

  test('text-contrast: below 4.5:1 fails, large text needs 3:1, unmeasured text is not judged', () => {
    const measured = (ratio: number, large: boolean) => {
      const roots = inWindow(
        n('Label', { Name: 'Note', 'native:Accessible.States': ['showing', 'visible', 'enabled'] }),
      );
      const label = [...walkCheckTree(roots)].find((node) => node.role === 'Label')!;
      assert.ok(isContrastCandidate(label));
      attachFact(
        label,
        ESTIMATED_CONTRAST,
        uiObject({
          ratio: uiNumber(ratio),
          foreground: uiString('#888888'),
          background: uiString('#ffffff'),
          large: uiBool(large),
        }),
      );
      return runChecks(roots, { config: EMPTY_CHECK_CONFIG, only: new Set(['text-contrast']) }).findings.map(
        (f) => f.message,
      );
    };
    assert.deepEqual(measured(3.54, false), [
      'Label "Note" has a contrast of 3.54:1 (#888888 on #ffffff), below 4.5:1',
    ]);
    assert.deepEqual(measured(3.54, true), []);
    assert.deepEqual(measured(2.9, true), ['Label "Note" has a contrast of 2.90:1 (#888888 on #ffffff), below 3:1']);
    assert.deepEqual(measured(4.5, false), []);
    const unmeasured = inWindow(n('Label', { Name: 'Note' }));
    assert.deepEqual(
      runChecks(unmeasured, { config: EMPTY_CHECK_CONFIG, only: new Set(['text-contrast']) }).findings,
      [],
    );
  });

  test('disabled controls and containers of text are no contrast candidates', () => {
    const states = (extra: string[]) => ({ 'native:Accessible.States': ['showing', 'visible', ...extra] });
    const roots = inWindow(
      n('Button', { Name: 'Send', ...states(['sensitive']) }),
      n('Button', { Name: 'Off', ...states([]) }),
      n('Paragraph', states(['enabled']), [n('Static', { Name: 'Words', ...states(['enabled']) })]),
    );
    const byName = (role: string, name: string) =>
      [...walkCheckTree(roots)].find((node) => node.role === role && node.name === name)!;
    assert.equal(isContrastCandidate(byName('Button', 'Send')), true);
    assert.equal(isContrastCandidate(byName('Button', 'Off')), false);
    assert.equal(isContrastCandidate(byName('Paragraph', '')), false);
    assert.equal(isContrastCandidate(byName('Static', 'Words')), true);
  });
});
