import { useMemo, useRef, type PointerEvent } from 'react';
import { timeAtPoint } from '../lib/timeline-scale';

/** Markers handle their own clicks: a press on one does not scrub. */
const MARKER = '.replay-marker';

export interface ScrubHandlers {
  onPointerDown: (event: PointerEvent<HTMLElement>) => void;
  onPointerMove: (event: PointerEvent<HTMLElement>) => void;
  onPointerUp: (event: PointerEvent<HTMLElement>) => void;
  onPointerCancel: (event: PointerEvent<HTMLElement>) => void;
}

/**
 * Pointer handlers that scrub: a press on a track seeks to the time under it, and dragging (the
 * pointer captured by the track) keeps seeking, so the video and the heatmap follow the pointer.
 */
export function useScrub(end: number, onSeek: (seconds: number) => void, disabled: boolean): ScrubHandlers {
  const dragging = useRef<number | null>(null);
  return useMemo(() => {
    const seekAt = (event: PointerEvent<HTMLElement>) =>
      onSeek(timeAtPoint(event.clientX, event.currentTarget.getBoundingClientRect(), end));
    const stop = (event: PointerEvent<HTMLElement>) => {
      if (dragging.current !== event.pointerId) return;
      dragging.current = null;
      if (event.currentTarget.hasPointerCapture(event.pointerId)) {
        event.currentTarget.releasePointerCapture(event.pointerId);
      }
    };
    return {
      onPointerDown(event) {
        if (disabled || event.button !== 0 || (event.target as Element).closest(MARKER)) return;
        event.preventDefault();
        event.currentTarget.setPointerCapture(event.pointerId);
        dragging.current = event.pointerId;
        seekAt(event);
      },
      onPointerMove(event) {
        if (dragging.current === event.pointerId) seekAt(event);
      },
      onPointerUp: stop,
      onPointerCancel: stop,
    };
  }, [end, onSeek, disabled]);
}
