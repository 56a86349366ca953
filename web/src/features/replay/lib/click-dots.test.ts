import { describe, expect, it } from 'vitest';
import { drawClickDots, type DotContext } from './click-dots';
import { dotRadius, heatPoints, heatRadius } from './time-window';

/** A 2D context that keeps what was drawn (jsdom has no canvas). */
function recorder() {
  const dots: { x: number; y: number; r: number; alpha: number; fill: string; stroked: boolean }[] = [];
  let path: { x: number; y: number; r: number } | null = null;
  const context: DotContext = {
    globalAlpha: 0.5,
    fillStyle: '#000000',
    strokeStyle: '#000000',
    lineWidth: 1,
    beginPath: () => {
      path = null;
    },
    arc: (x: number, y: number, r: number) => {
      path = { x, y, r };
    },
    fill: () => {
      if (path)
        dots.push({ ...path, alpha: context.globalAlpha, fill: context.fillStyle as string, stroked: false });
    },
    stroke: () => {
      const last = dots.at(-1);
      if (last) last.stroked = true;
    },
  };
  return { context, dots };
}

describe('click dots', () => {
  it('draws a lone click as an opaque, ringed dot where it was made, whatever alpha the heat left', () => {
    const { context, dots } = recorder();
    const points = heatPoints([{ x: 0.25, y: 0.5 }], 640, 360);
    drawClickDots(context, points, dotRadius(heatRadius(640, 360).radius));
    expect(dots).toEqual([{ x: 160, y: 180, r: 4, alpha: 1, fill: '#ffffff', stroked: true }]);
  });

  it('draws one dot per click', () => {
    const { context, dots } = recorder();
    drawClickDots(
      context,
      heatPoints(
        [
          { x: 0, y: 0 },
          { x: 1, y: 1 },
          { x: 1, y: 1 },
        ],
        100,
        50,
      ),
      3,
    );
    expect(dots.map(({ x, y }) => [x, y])).toEqual([
      [0, 0],
      [100, 50],
      [100, 50],
    ]);
  });

  it('keeps a dot small beside its heat spot, and at least 3 px', () => {
    expect(dotRadius(heatRadius(1280, 720).radius)).toBe(9);
    expect(dotRadius(heatRadius(640, 360).radius)).toBe(4);
    expect(dotRadius(8)).toBe(3);
  });
});
