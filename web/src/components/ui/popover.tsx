import { useEffect, useRef, type ReactNode, type RefObject } from 'react';
import './popover.css';

interface PopoverProps {
  /** The accessible name of the panel. */
  label: string;
  onClose: () => void;
  children: ReactNode;
  className?: string;
}

/**
 * A small panel anchored under the control that opened it (place it inside a `position: relative`
 * wrapper next to that control). Escape or a press outside closes it.
 */
export function Popover({ label, onClose, children, className }: PopoverProps) {
  const panel = useRef<HTMLDivElement>(null);
  useDismiss(panel, onClose);
  return (
    <div
      ref={panel}
      role="dialog"
      aria-label={label}
      className={`popover${className ? ` ${className}` : ''}`}
    >
      {children}
    </div>
  );
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
