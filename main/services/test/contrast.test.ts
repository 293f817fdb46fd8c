// Text contrast is measured from one screenshot of the area the text elements cover, not of the whole screen, with
// the same result: elements wholly on the screen measured from their own pixels, the others left out.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { estimateContrast } from '../../../shared/checks/contrast.js';
import { checkTreeFromSnapshot, type CheckNode } from '../../../shared/checks/model.js';
import { ESTIMATED_CONTRAST } from '../../../shared/checks/rules/text-contrast.js';
import { InspectorError } from '../../../shared/model/errors.js';
import { uiBool, type Rect } from '../../../shared/model/values.js';
import type { Screenshot, ScreenshotDevice } from '../../core/platform.js';
import type { Runtime } from '../../runtime/runtime.js';
import { measureContrast } from '../contrast.js';

const SCREEN = { width: 200, height: 100 };

/** A white screen with dark grey text strokes every few pixels inside the label at 20,20 (and a lighter one below). */
function pixel(x: number, y: number): [number, number, number] {
  const inText = (left: number, top: number) => x >= left && x < left + 40 && y >= top && y < top + 12;
  if (inText(20, 20) && x % 4 === 0) return [40, 40, 40];
  if (inText(100, 60) && y % 3 === 0) return [150, 150, 150];
  return [255, 255, 255];
}

/** Clips a region to the screen as the X11 device does; remembers what was asked for. */
function device(asked: Rect[]): ScreenshotDevice {
  return {
    capture(region?: Rect): Promise<Screenshot> {
      const area = region ?? { x: 0, y: 0, ...SCREEN };
      asked.push(area);
      const x0 = Math.max(0, area.x);
      const y0 = Math.max(0, area.y);
      const x1 = Math.min(SCREEN.width, area.x + area.width);
      const y1 = Math.min(SCREEN.height, area.y + area.height);
      if (x1 <= x0 || y1 <= y0) return Promise.reject(new InspectorError('invalid-input', 'off the screen'));
      const pixels = new Uint8Array((x1 - x0) * (y1 - y0) * 4);
      for (let y = y0; y < y1; y++)
        for (let x = x0; x < x1; x++) pixels.set([...pixel(x, y), 255], ((y - y0) * (x1 - x0) + (x - x0)) * 4);
      return Promise.resolve({ width: x1 - x0, height: y1 - y0, format: 'Rgba8', pixels });
    },
  };
}

function label(name: string, box: Rect) {
  return {
    namespace: 'control' as const,
    role: 'Label',
    attributes: [
      { namespace: 'control' as const, name: 'Name', value: { type: 'String' as const, value: name } },
      { namespace: 'control' as const, name: 'IsVisible', value: uiBool(true) },
      { namespace: 'control' as const, name: 'IsEnabled', value: uiBool(true) },
      { namespace: 'control' as const, name: 'Bounds', value: { type: 'Rect' as const, value: box } },
    ],
    children: [],
  };
}

/** What the element's pixels give, read from the whole screen (3 pixels in from its edges). */
function expectedRatio(box: Rect): number {
  const width = box.width - 6;
  const height = box.height - 6;
  const pixels = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) pixels.set([...pixel(box.x + 3 + x, box.y + 3 + y), 255], (y * width + x) * 4);
  return Math.floor(estimateContrast({ width, height, format: 'Rgba8', pixels })!.ratio * 100) / 100;
}

function ratioOf(node: CheckNode): number | undefined {
  const fact = node.attributes.get(ESTIMATED_CONTRAST);
  return fact?.type === 'Object' && fact.value['ratio']?.type === 'Number' ? fact.value['ratio'].value : undefined;
}

test('one screenshot of the area the text covers; elements wholly on the screen measured as from the whole screen', async () => {
  const boxes: Rect[] = [
    { x: 20, y: 20, width: 40, height: 12 },
    { x: 100, y: 60, width: 40, height: 12 },
    { x: 180, y: 60, width: 40, height: 12 },
    { x: -10, y: 10, width: 30, height: 12 },
  ];
  const [window] = checkTreeFromSnapshot([
    {
      namespace: 'control',
      role: 'Frame',
      attributes: [],
      children: boxes.map((box, i) => label(`Text ${i}`, box)),
    },
  ]);
  const asked: Rect[] = [];
  const runtime = { platform: { screenshot: device(asked) } } as unknown as Runtime;
  assert.equal(await measureContrast(runtime, [window!]), true);
  assert.deepEqual(asked, [{ x: 0, y: 10, width: 220, height: 62 }]);
  const ratios = window!.children.map(ratioOf);
  assert.deepEqual(ratios, [expectedRatio(boxes[0]!), expectedRatio(boxes[1]!), undefined, undefined]);
  assert.ok(ratios[0]! > ratios[1]!, `${ratios[0]} against ${ratios[1]}`);
});

test('text wholly off the screen: nothing measured, no error', async () => {
  const [window] = checkTreeFromSnapshot([
    {
      namespace: 'control',
      role: 'Frame',
      attributes: [],
      children: [label('Far', { x: 400, y: 10, width: 40, height: 12 })],
    },
  ]);
  const asked: Rect[] = [];
  const runtime = { platform: { screenshot: device(asked) } } as unknown as Runtime;
  assert.equal(await measureContrast(runtime, [window!]), true);
  assert.equal(asked.length, 1);
  assert.equal(ratioOf(window!.children[0]!), undefined);
});
