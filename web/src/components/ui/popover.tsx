import { useEffect, useLayoutEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import './popover.css';

interface PopoverProps {
  /** The accessible name of the panel. */
  label: string;
  onClose: () => void;
  children: ReactNode;
  className?: string;
}

const GAP_PX = 6;
const MARGIN_PX = 8;

/**
 * A small panel anchored to the control that opened it (its parent element): under it, or above
 * when there is no room below, and kept inside the window. Fixed to the viewport, so a scrolling
 * panel around the control does not clip it. Escape or a press outside closes it.
 */
export function Popover({ label, onClose, children, className }: PopoverProps) {
  const panel = useRef<HTMLDivElement>(null);
  const [position, setPosition] = useState<{ top: number; left: number } | null>(null);
  useDismiss(panel, onClose);

  useLayoutEffect(() => {
    const place = () => {
      const element = panel.current;
      const anchor = element?.parentElement;
      if (!element || !anchor) return;
      setPosition(popoverPosition(anchor.getBoundingClientRect(), element.getBoundingClientRect(), window));
    };
    place();
    window.addEventListener('resize', place);
    window.addEventListener('scroll', place, true);
    return () => {
      window.removeEventListener('resize', place);
      window.removeEventListener('scroll', place, true);
    };
  }, []);

  return (
    <div
      ref={panel}
      role="dialog"
      aria-label={label}
      className={`popover${className ? ` ${className}` : ''}`}
      style={position ?? { visibility: 'hidden' }}
    >
      {children}
    </div>
  );
}

type Box = Pick<DOMRect, 'top' | 'bottom' | 'left' | 'right' | 'width' | 'height'>;

/** Where the panel goes: below the anchor, right edges aligned, flipped and clamped to stay visible. */
export function popoverPosition(
  anchor: Box,
  panel: Pick<Box, 'width' | 'height'>,
  viewport: { innerWidth: number; innerHeight: number },
): { top: number; left: number } {
  const below = anchor.bottom + GAP_PX;
  const above = anchor.top - GAP_PX - panel.height;
  const fitsBelow = below + panel.height <= viewport.innerHeight - MARGIN_PX;
  const top = fitsBelow || above < MARGIN_PX ? below : above;
  const left = Math.min(
    Math.max(MARGIN_PX, anchor.right - panel.width),
    viewport.innerWidth - MARGIN_PX - panel.width,
  );
  return { top: Math.max(MARGIN_PX, top), left: Math.max(MARGIN_PX, left) };
}

/** Calls `onClose` on Escape, or on a press outside `element` and outside the control that opened it. */
export function useDismiss(element: RefObject<HTMLElement | null>, onClose: () => void): void {
  const close = useRef(onClose);
  useEffect(() => {
    close.current = onClose;
  }, [onClose]);
  useEffect(() => {
    const opener = element.current?.parentElement;
    const onPointerDown = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!element.current?.contains(target) && !opener?.contains(target)) close.current();
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') close.current();
    };
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('keydown', onKeyDown);
    };
  }, [element]);
}
