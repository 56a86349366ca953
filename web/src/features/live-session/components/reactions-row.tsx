import { TRANSPARENT } from '@uis/proto/browser';
import type { Action } from '@uis/proto';
import { Icon } from '../../../components/ui/icon';
import { useIconFonts } from '../../../components/ui/icon-fonts';
import { LIVE_SESSION_TEXTS, reactWithText } from '../../../i18n/en/live-session';

/**
 * The session's reaction icons (spec section 2), in the style and colour set in the editor. Pressing
 * one sends '{name} reacted with {action}' to the chat (the caller's `onReact`).
 */
export function ReactionsRow({
  actions,
  disabled,
  onReact,
}: {
  actions: readonly Action[];
  disabled: boolean;
  onReact: (action: Action) => void;
}) {
  useIconFonts(actions.map((action) => action.type));
  if (actions.length === 0) return null;
  return (
    <ul className="live-reactions" aria-label={LIVE_SESSION_TEXTS.reactions}>
      {actions.map((action) => (
        <li key={action.action_id}>
          <button
            type="button"
            className="live-reaction"
            aria-label={reactWithText(action.name)}
            title={action.name}
            disabled={disabled}
            onClick={() => onReact(action)}
          >
            <Icon
              name={action.icon}
              iconStyle={action.type}
              // 'transparent' would hide the icon altogether: it takes the text colour instead.
              color={action.color === TRANSPARENT ? undefined : action.color}
              size={28}
            />
          </button>
        </li>
      ))}
    </ul>
  );
}
