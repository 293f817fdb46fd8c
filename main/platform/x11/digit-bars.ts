import type { Point, Rect } from '../../../shared/model/values.js';
import { intersectRect } from './screenshot.js';

/**
 * Digits drawn as seven-segment bars: the highlight's overlay windows are solid rectangles the X server paints itself,
 * so a number beside a frame (the tab order's markers) is made of the same rectangles, with no font and no drawing.
 */

export const DIGIT_WIDTH = 10;
export const DIGIT_HEIGHT = 18;
const STROKE = 3;
const GAP = 4;

type Segment = 'a' | 'b' | 'c' | 'd' | 'e' | 'f' | 'g';

const SEGMENTS: { readonly [digit: string]: readonly Segment[] } = {
  '0': ['a', 'b', 'c', 'd', 'e', 'f'],
  '1': ['b', 'c'],
  '2': ['a', 'b', 'g', 'e', 'd'],
  '3': ['a', 'b', 'g', 'c', 'd'],
  '4': ['f', 'g', 'b', 'c'],
  '5': ['a', 'f', 'g', 'c', 'd'],
  '6': ['a', 'f', 'g', 'e', 'c', 'd'],
  '7': ['a', 'b', 'c'],
  '8': ['a', 'b', 'c', 'd', 'e', 'f', 'g'],
  '9': ['a', 'b', 'c', 'd', 'f', 'g'],
};

function segmentRect(segment: Segment, x: number, y: number): Rect {
  const half = Math.ceil(DIGIT_HEIGHT / 2);
  switch (segment) {
    case 'a':
      return { x, y, width: DIGIT_WIDTH, height: STROKE };
    case 'd':
      return { x, y: y + DIGIT_HEIGHT - STROKE, width: DIGIT_WIDTH, height: STROKE };
    case 'g':
      return { x, y: y + Math.floor((DIGIT_HEIGHT - STROKE) / 2), width: DIGIT_WIDTH, height: STROKE };
    case 'f':
      return { x, y, width: STROKE, height: half };
    case 'b':
      return { x: x + DIGIT_WIDTH - STROKE, y, width: STROKE, height: half };
    case 'e':
      return { x, y: y + DIGIT_HEIGHT - half, width: STROKE, height: half };
    case 'c':
      return { x: x + DIGIT_WIDTH - STROKE, y: y + DIGIT_HEIGHT - half, width: STROKE, height: half };
  }
}

/** The bars that draw a text's digits from `at` rightwards, clipped to the desktop (other characters skipped). */
export function digitBars(text: string, at: Point, desktop: Rect): Rect[] {
  const bars: Rect[] = [];
  let x = Math.round(at.x);
  const y = Math.round(at.y);
  for (const character of text) {
    const segments = SEGMENTS[character];
    if (!segments) continue;
    for (const segment of segments) {
      const bar = intersectRect(segmentRect(segment, x, y), desktop);
      if (bar) bars.push(bar);
    }
    x += DIGIT_WIDTH + GAP;
  }
  return bars;
}
