import { useId, useRef, useState, type MouseEvent } from 'react';
import { renewAccessToken, routeUrl } from '../../../api/client';
import { tokens } from '../../../signed-in/tokens';
import { Icon } from '../../../components/ui/icon';
import '../study-export.css';
import { COMMON_TEXTS } from '../../../i18n/en/common';

/** Renewed this long before it expires: a download must not start with a cookie that is about to lapse. */
const RENEW_BEFORE_MS = 30_000;

/** What to export: one session (the session editor) or every session of a group (the dashboard). */
export type StudyExportTarget = { sessionId: string } | { groupId: string };

/**
 * The study export: a checkbox for identifiers.csv (e-mails, names, account and panel ids; left out
 * unless ticked, so an archive can be shared as it is) and a plain link to GET /exportStudy with `download`, so the browser itself fetches
 * the archive and streams it to disk (a group's archive can be hundreds of megabytes: never a blob in
 * the page), signed in by the accessToken cookie. A link sends nothing else and cannot retry after a
 * 401, so when the signed-in marker says that token is about to expire the click waits for a fresh
 * one, then follows the link.
 */
export function StudyExportButton({ target, className }: { target: StudyExportTarget; className?: string }) {
  const renewed = useRef(false);
  const [identifiers, setIdentifiers] = useState(false);
  const checkboxId = useId();

  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    // The click made after a renewal goes through, even if the renewal failed (the server then says why).
    if (renewed.current || !tokens.expiresWithin(RENEW_BEFORE_MS)) {
      renewed.current = false;
      return;
    }
    event.preventDefault();
    const link = event.currentTarget;
    void renewAccessToken().finally(() => {
      renewed.current = true;
      link.click();
    });
  };

  return (
    <span className={`study-export${className ? ` ${className}` : ''}`}>
      <a
        className="button secondary study-export-button"
        href={routeUrl('exportStudy', identifiers ? { ...target, identifiers: true } : target)}
        download
        onClick={onClick}
      >
        <Icon name="folder_zip" /> {COMMON_TEXTS.exportStudy}
      </a>
      <label className="study-export-identifiers" htmlFor={checkboxId}>
        <input
          id={checkboxId}
          type="checkbox"
          checked={identifiers}
          onChange={(event) => setIdentifiers(event.target.checked)}
        />{' '}
        {COMMON_TEXTS.includeIdentifiers}
      </label>
    </span>
  );
}
