import { STREAM_PIXEL_COLOR } from '@uis/proto/browser';
import type { ClientPayloadOf } from '@uis/proto';
import type { PlayerAdapter } from '../players/player';

/** A rectangle on the page (a DOMRect's fields). */
export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** The picture's own size (a video's videoWidth and videoHeight). */
export interface PictureSize {
  width: number;
  height: number;
}

/** A point as fractions 0 to 1 of the picture, from its left and top edges. */
export interface Fractions {
  x: number;
  y: number;
}

/** Fractions are sent with this many decimals (a 10,000-pixel-wide picture would still be exact). */
const DECIMALS = 4;
const round = (value: number) => Number(value.toFixed(DECIMALS));

/**
 * Where the picture is drawn inside `box` when it is fitted whole (object-fit: contain, the
 * <video> default): centred, with bars on two sides when the shapes differ. Without a known size
 * the picture fills the box (an embedded player draws its own).
 */
export function pictureBox(box: Box, picture?: PictureSize | null): Box {
  if (!picture || picture.width <= 0 || picture.height <= 0 || box.width <= 0 || box.height <= 0) return box;
  const scale = Math.min(box.width / picture.width, box.height / picture.height);
  const width = picture.width * scale;
  const height = picture.height * scale;
  return {
    left: box.left + (box.width - width) / 2,
    top: box.top + (box.height - height) / 2,
    width,
    height,
  };
}

/**
 * A click at page point (`clientX`, `clientY`) as fractions of the displayed picture, or null when it
 * fell on the bars around the picture (not on the video).
 */
export function clickFractions(
  clientX: number,
  clientY: number,
  box: Box,
  picture?: PictureSize | null,
): Fractions | null {
  const shown = pictureBox(box, picture);
  if (shown.width <= 0 || shown.height <= 0) return null;
  const x = (clientX - shown.left) / shown.width;
  const y = (clientY - shown.top) / shown.height;
  if (x < 0 || x > 1 || y < 0 || y > 1) return null;
  return { x: round(x), y: round(y) };
}

/** Where a marker for `point` goes inside `box`, as percentages of the box (CSS left and top). */
export function markerPercent(point: Fractions, box: Box, picture?: PictureSize | null): Fractions {
  const shown = pictureBox(box, picture);
  if (box.width <= 0 || box.height <= 0) return { x: point.x * 100, y: point.y * 100 };
  return {
    x: ((shown.left - box.left + point.x * shown.width) / box.width) * 100,
    y: ((shown.top - box.top + point.y * shown.height) / box.height) * 100,
  };
}

/**
 * The `clickVideo` payload for a click at `point`: the colour under it from the player and the
 * video's current time. A stream session's clicks record STREAM_PIXEL_COLOR ('n/a', spec section 3),
 * as does a frame that cannot be read.
 */
export function clickPayload(
  player: PlayerAdapter,
  point: Fractions,
  sessionId: string,
  name: string,
  kind: 'video' | 'stream' = 'video',
): ClientPayloadOf<'clickVideo'> {
  const videoTime = player.currentTime();
  return {
    sessionId,
    name,
    x: point.x,
    y: point.y,
    color: (kind === 'video' ? player.colorAt(point.x, point.y) : null) ?? STREAM_PIXEL_COLOR,
    videoTime: Number.isFinite(videoTime) && videoTime >= 0 ? videoTime : null,
  };
}
