import type { SessionType } from '@uis/proto/browser';
import type { ReactNode } from 'react';
import { Icon } from './icon';
import { IconButton } from './icon-button';
import './session-card.css';
import { COMMON_TEXTS, sessionKindText } from '../../i18n/en/common';

/** Each session kind's icon (spec section 1: each kind has its own). */
const SESSION_TYPE_ICONS: Record<SessionType, string> = {
  video: 'movie',
  stream: 'live_tv',
  chat: 'videocam',
};

interface SessionCardProps {
  type: SessionType;
  title: string;
  /** Smaller cards (dashboard under width 800). */
  compact: boolean;
  onOpen: () => void;
  onDelete?: () => void;
  /** The icon shows but cannot be used (a participant's list). */
  deleteDisabled?: boolean;
  /** More controls on the card (a participant's Withdraw). */
  children?: ReactNode;
}

/** A session in a list: its kind's icon and title open it; a delete icon beside them. */
export function SessionCard({
  type,
  title,
  compact,
  onOpen,
  onDelete,
  deleteDisabled,
  children,
}: SessionCardProps) {
  return (
    <li className={`session-card${compact ? ' compact' : ''}`}>
      <button type="button" className="session-card-open" onClick={onOpen}>
        <Icon name={SESSION_TYPE_ICONS[type]} className={`session-card-icon ${type}`} />
        <span className="session-card-title">{title}</span>
        <span className="visually-hidden">{sessionKindText(type)}</span>
      </button>
      <IconButton
        icon="delete"
        label={COMMON_TEXTS.deleteSession}
        className="session-card-delete"
        onClick={onDelete}
        disabled={deleteDisabled || !onDelete}
      />
      {children}
    </li>
  );
}

interface AddSessionCardProps {
  compact: boolean;
  busy: boolean;
  onAdd: () => void;
}

/** The card after the sessions that creates a new one. */
export function AddSessionCard({ compact, busy, onAdd }: AddSessionCardProps) {
  return (
    <li className={`session-card add${compact ? ' compact' : ''}`}>
      <button type="button" className="session-card-open" onClick={onAdd} disabled={busy} aria-busy={busy}>
        <Icon name="add" className="session-card-icon" />
        <span className="session-card-title">{COMMON_TEXTS.addSession}</span>
      </button>
    </li>
  );
}
