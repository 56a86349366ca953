import { STREAM_PIXEL_COLOR } from '@uis/proto/browser';
import { describe, expect, it } from 'vitest';
import { clickFractions, clickPayload, markerPercent, pictureBox } from './click-capture';
import { FakePlayer } from '../testing/fakes';

const sessionId = '6f1c2a8e-1d7b-4c1e-9a55-0b9f3f1e2d10';
const box = { left: 100, top: 50, width: 800, height: 450 };

describe('click capture arithmetic', () => {
  it('measures a click in fractions of the picture from its top-left corner', () => {
    expect(clickFractions(100, 50, box)).toEqual({ x: 0, y: 0 });
    expect(clickFractions(900, 500, box)).toEqual({ x: 1, y: 1 });
    expect(clickFractions(300, 140, box)).toEqual({ x: 0.25, y: 0.2 });
    // Rounded to four decimals.
    expect(clickFractions(101, 51, box)).toEqual({ x: 0.0013, y: 0.0022 });
  });

  it('finds the picture inside a box of another shape (bars left and right, or above and below)', () => {
    const square = { left: 0, top: 0, width: 600, height: 600 };
    expect(pictureBox(square, { width: 640, height: 360 })).toEqual({
      left: 0,
      top: 131.25,
      width: 600,
      height: 337.5,
    });
    expect(pictureBox(square, { width: 300, height: 600 })).toEqual({
      left: 150,
      top: 0,
      width: 300,
      height: 600,
    });
    // Unknown size (an embedded player): the picture is the box.
    expect(pictureBox(square, null)).toEqual(square);
  });

  it('measures against the displayed picture, and ignores clicks on the bars', () => {
    const square = { left: 0, top: 0, width: 600, height: 600 };
    const picture = { width: 640, height: 360 };
    expect(clickFractions(300, 300, square, picture)).toEqual({ x: 0.5, y: 0.5 });
    expect(clickFractions(0, 131.25, square, picture)).toEqual({ x: 0, y: 0 });
    expect(clickFractions(300, 100, square, picture)).toBeNull();
    expect(clickFractions(300, 500, square, picture)).toBeNull();
  });

  it('places the marker where the click was, in percent of the box', () => {
    const square = { left: 0, top: 0, width: 600, height: 600 };
    const picture = { width: 640, height: 360 };
    expect(markerPercent({ x: 0.5, y: 0.5 }, square, picture)).toEqual({ x: 50, y: 50 });
    expect(markerPercent({ x: 0, y: 0 }, square, picture)).toEqual({ x: 0, y: 21.875 });
    expect(markerPercent({ x: 0.25, y: 0.2 }, box)).toEqual({ x: 25, y: 20 });
  });

  it("builds clickVideo with the player's colour and time, or 'n/a' when the frame cannot be read", () => {
    const player = new FakePlayer({ color: 'rgba(233, 30, 99, 1)' });
    player.position = 12.5;
    expect(clickPayload(player, { x: 0.25, y: 0.5 }, sessionId, 'Ann')).toEqual({
      sessionId,
      name: 'Ann',
      x: 0.25,
      y: 0.5,
      color: 'rgba(233, 30, 99, 1)',
      videoTime: 12.5,
    });
    const stream = new FakePlayer({ color: null });
    expect(clickPayload(stream, { x: 1, y: 0 }, sessionId, 'Ann').color).toBe(STREAM_PIXEL_COLOR);
    // A stream session records 'n/a' even where its frame could be read (spec section 3).
    expect(clickPayload(player, { x: 1, y: 0 }, sessionId, 'Ann', 'stream').color).toBe(STREAM_PIXEL_COLOR);
  });
});
