import { useEffect, useState, type RefObject } from 'react';

/**
 * True once `ref`'s element has come within `margin` of the viewport (and from then on): what is
 * below the fold loads when the reader scrolls towards it. Stays false where the browser has no
 * IntersectionObserver (the caller offers a button instead).
 */
export function useNearViewport(ref: RefObject<Element | null>, margin = '200px'): boolean {
  const [near, setNear] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (near || !element || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setNear(true);
      },
      { rootMargin: margin },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref, margin, near]);
  return near;
}
