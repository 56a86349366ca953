import type { MouseEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { LIVE_SESSION_TEXTS } from '../../../i18n/en/live-session';

/**
 * 'Exit' goes back one page (spec section 2). Opened directly (a bookmark, a new tab), the page has
 * nowhere to go back to in the app: it goes to `fallback` instead.
 */
export function ExitLink({ fallback }: { fallback: string }) {
  const navigate = useNavigate();
  const location = useLocation();
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    // The router's first entry has the key 'default': nothing of the app's behind it.
    if (location.key === 'default' || event.metaKey || event.ctrlKey || event.shiftKey) return;
    event.preventDefault();
    void navigate(-1);
  };
  return (
    <Link to={fallback} className="button secondary live-exit" onClick={onClick}>
      {LIVE_SESSION_TEXTS.exit}
    </Link>
  );
}
