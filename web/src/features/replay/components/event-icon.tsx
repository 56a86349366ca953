import { TRANSPARENT } from '@uis/proto/browser';
import type { IconStyle } from '@uis/proto';
import { Icon } from '../../../components/ui/icon';
import type { ReplayEvent, ReplayKind } from '../lib/replay-events';

/** The icon of each kind (a lane's, a filter's); an event may have its own (eventGlyph). */
export const KIND_ICONS: Record<ReplayKind, string> = {
  message: 'chat_bubble',
  reaction: 'add_reaction',
  prompt: 'live_help',
  playback: 'smart_display',
  click: 'ads_click',
};

const PLAYBACK_ICONS = {
  play: 'play_arrow',
  pause: 'pause',
  seek: 'redo',
  rate: 'speed',
  end: 'stop',
  reopen: 'replay',
} as const;

interface Glyph {
  name: string;
  style: IconStyle;
  /** A reaction's own colour; otherwise the kind's (CSS). */
  color?: string;
}

/** What an event is drawn with: a reaction its action's icon, style and colour, playback what the player did. */
export function eventGlyph(event: ReplayEvent): Glyph {
  switch (event.kind) {
    case 'reaction':
      return event.action
        ? {
            name: event.action.icon,
            style: event.action.type,
            // 'transparent' would hide the icon: it takes the kind's colour instead.
            color: event.action.color === TRANSPARENT ? undefined : event.action.color,
          }
        : { name: KIND_ICONS.reaction, style: 'filled' };
    case 'prompt':
      return { name: event.source === 'set' ? KIND_ICONS.prompt : 'campaign', style: 'filled' };
    case 'playback':
      return { name: PLAYBACK_ICONS[event.event], style: 'filled' };
    case 'message':
      return { name: KIND_ICONS.message, style: 'filled' };
  }
}

export function EventIcon({ event, size }: { event: ReplayEvent; size?: number }) {
  const glyph = eventGlyph(event);
  return <Icon name={glyph.name} iconStyle={glyph.style} color={glyph.color} size={size} />;
}
