/** What drawing the dots needs of a canvas's 2D context. */
export type DotContext = Pick<
  CanvasRenderingContext2D,
  'globalAlpha' | 'fillStyle' | 'strokeStyle' | 'lineWidth' | 'beginPath' | 'arc' | 'fill' | 'stroke'
>;

/** White with a dark ring: plain over any picture and over every colour of the heat. */
const DOT_FILL = '#ffffff';
const DOT_RING = 'rgba(17, 24, 39, 0.9)';
const DOT_RING_WIDTH = 1.5;

/**
 * A solid dot on each click, drawn over the heat (canvas pixels), fully opaque whatever alpha the
 * heat was drawn with last.
 */
export function drawClickDots(
  context: DotContext,
  points: readonly (readonly [number, number, ...unknown[]])[],
  radius: number,
): void {
  context.globalAlpha = 1;
  context.fillStyle = DOT_FILL;
  context.strokeStyle = DOT_RING;
  context.lineWidth = DOT_RING_WIDTH;
  for (const [x, y] of points) {
    context.beginPath();
    context.arc(x, y, radius, 0, Math.PI * 2);
    context.fill();
    context.stroke();
  }
}
