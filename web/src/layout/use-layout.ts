import { useSyncExternalStore } from 'react';
import { layoutOf, type Layout, type Viewport } from './breakpoints';

const readViewport = (): Viewport => ({
  width: window.innerWidth,
  height: window.innerHeight,
  screenWidth: window.screen.width,
  screenHeight: window.screen.height,
});

// One snapshot per size, so React sees a stable value between resizes.
let snapshot: Viewport = readViewport();
const subscribe = (onChange: () => void) => {
  const update = () => {
    snapshot = readViewport();
    onChange();
  };
  window.addEventListener('resize', update);
  return () => window.removeEventListener('resize', update);
};

/** The viewport, re-rendering on resize. */
const useViewport = (): Viewport => useSyncExternalStore(subscribe, () => snapshot);

/** The breakpoint flags of the current viewport. */
export const useLayout = (): Layout => layoutOf(useViewport());
