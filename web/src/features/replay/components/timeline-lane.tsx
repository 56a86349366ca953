import { memo, useRef, useState, type KeyboardEvent } from 'react';
import type { ScrubHandlers } from '../hooks/use-scrub';
import { eventLabel, type MarkerKind, type ReplayEvent } from '../lib/replay-events';
import { percentAt } from '../lib/timeline-scale';
import { EventIcon } from './event-icon';
import { laneText } from '../../../i18n/en/replay';

interface TimelineLaneProps {
  kind: MarkerKind;
  name: string;
  events: readonly ReplayEvent[];
  end: number;
  onSeek: (seconds: number) => void;
  scrub: ScrubHandlers;
  /** Said in the empty lane (e.g. the playback log could not be loaded). */
  note?: string;
}

/** Markers within this far of an end take their tooltip inside the timeline. */
const EDGE_PERCENT = 15;

const edgeClass = (percent: number) =>
  percent < EDGE_PERCENT ? ' edge-start' : percent > 100 - EDGE_PERCENT ? ' edge-end' : '';

/**
 * One lane of the timeline: a kind's events as markers at their video time, each a button that seeks
 * there, with the event in words as its name and tooltip. One tab stop per lane; the arrow keys,
 * Home and End move between its markers (a toolbar). A prompt as set also shows how long it stays.
 */
export const TimelineLane = memo(function TimelineLane({
  kind,
  name,
  events,
  end,
  onSeek,
  scrub,
  note,
}: TimelineLaneProps) {
  const [active, setActive] = useState(0);
  const markers = useRef<(HTMLButtonElement | null)[]>([]);
  const current = Math.min(active, Math.max(0, events.length - 1));

  const onKeyDown = (event: KeyboardEvent, index: number) => {
    const last = events.length - 1;
    const next =
      event.key === 'ArrowRight'
        ? Math.min(last, index + 1)
        : event.key === 'ArrowLeft'
          ? Math.max(0, index - 1)
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : null;
    if (next === null) return;
    event.preventDefault();
    setActive(next);
    markers.current[next]?.focus();
  };

  return (
    <div
      className={`replay-track replay-track-${kind}`}
      role="toolbar"
      aria-label={laneText(name, events.length)}
      {...scrub}
    >
      {events.map((event) =>
        event.kind === 'prompt' && event.source === 'set' ? (
          <span
            key={`${event.id}:band`}
            className="replay-prompt-band"
            aria-hidden="true"
            style={{
              left: `${percentAt(event.at, end)}%`,
              width: `${percentAt(event.at + event.duration, end) - percentAt(event.at, end)}%`,
            }}
          />
        ) : null,
      )}
      {events.map((event, index) => {
        const label = eventLabel(event);
        const left = percentAt(event.at, end);
        const set = event.kind === 'prompt' && event.source === 'set';
        return (
          <button
            key={event.id}
            ref={(button) => {
              markers.current[index] = button;
            }}
            type="button"
            className={`replay-marker replay-marker-${event.kind}${set ? ' set' : ''}${edgeClass(left)}`}
            style={{ left: `${left}%` }}
            tabIndex={index === current ? 0 : -1}
            aria-label={label}
            data-tooltip={label}
            data-at={event.at}
            onClick={() => onSeek(event.at)}
            onFocus={() => setActive(index)}
            onKeyDown={(keyEvent) => onKeyDown(keyEvent, index)}
          >
            <EventIcon event={event} size={14} />
          </button>
        );
      })}
      {events.length === 0 && note ? <span className="replay-track-note">{note}</span> : null}
    </div>
  );
});
