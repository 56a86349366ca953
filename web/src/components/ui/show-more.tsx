import { useState } from 'react';
import './show-more.css';
import { showMoreText } from '../../i18n/en/common';

/**
 * Long lists (thousands of icons, a long session's clicks) render a page at a time, so the page
 * stays quick; a button shows the next page. A new `resetKey` (a new search) starts from page one.
 */
export function useShownItems<T>(items: readonly T[], pageSize: number, resetKey: unknown = null) {
  const [state, setState] = useState({ resetKey, count: pageSize });
  const count = Object.is(state.resetKey, resetKey) ? state.count : pageSize;
  return {
    visible: items.slice(0, count),
    hidden: Math.max(0, items.length - count),
    showMore: () => setState({ resetKey, count: count + pageSize }),
  };
}

export function ShowMoreButton({ hidden, onClick }: { hidden: number; onClick: () => void }) {
  if (hidden <= 0) return null;
  return (
    <button type="button" className="button secondary show-more" onClick={onClick}>
      {showMoreText(hidden)}
    </button>
  );
}
