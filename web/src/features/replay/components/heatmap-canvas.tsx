import { useEffect, useRef } from 'react';
import simpleheat from 'simpleheat';
import type { Box } from '../../../playback/clicks/click-capture';
import { drawClickDots } from '../lib/click-dots';
import { dotRadius, heatMax, heatPoints, heatRadius } from '../lib/time-window';

/** Below blue: a lone click's spot still shows, faintly (its dot is what shows it plainly). */
const MIN_OPACITY = 0.08;

interface HeatmapCanvasProps {
  /** Where the picture is inside the stage (pixels from its top left). */
  frame: Box;
  /** The clicks to draw: fractions 0-1 of the video area. */
  clicks: readonly { x: number; y: number }[];
  label: string;
}

/**
 * The clicks as a heatmap (simpleheat) on a canvas laid exactly over the picture, so a click's
 * fractions of the video area land where it was made, with a solid dot on each click: the heat
 * shows where clicks crowd, the dots that a lone click happened at all. Redrawn when the clicks or
 * the size change; pointer events pass through to the player's controls.
 */
export function HeatmapCanvas({ frame, clicks, label }: HeatmapCanvasProps) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const heat = useRef<simpleheat.Instance | null>(null);
  const width = Math.round(frame.width);
  const height = Math.round(frame.height);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas || width <= 0 || height <= 0) return;
    if (!heat.current) {
      // simpleheat reads the canvas back on every draw: the context is made for that before it asks.
      canvas.getContext('2d', { willReadFrequently: true });
      heat.current = simpleheat(canvas);
    }
    if (canvas.width !== width || canvas.height !== height) {
      canvas.width = width;
      canvas.height = height;
      heat.current.resize();
    }
    const { radius, blur } = heatRadius(width, height);
    const points = heatPoints(clicks, width, height);
    heat.current.radius(radius, blur).max(heatMax(clicks.length)).data(points).draw(MIN_OPACITY);
    const context = canvas.getContext('2d');
    if (context) drawClickDots(context, points, dotRadius(radius));
  }, [clicks, width, height]);

  return (
    <canvas
      ref={canvasRef}
      className="replay-heat"
      role="img"
      aria-label={label}
      data-clicks={clicks.length}
      style={{ left: frame.left, top: frame.top, width, height }}
    />
  );
}
