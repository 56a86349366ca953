import { useEffect, useId, useRef } from 'react';
import { RecordTime } from '../../records/components/record-time';
import { eventListTitle, type OffVideoMessage, type ReplayEvent } from '../lib/replay-events';
import { indexRange, type TimeWindow } from '../lib/time-window';
import { formatVideoTime } from '../lib/video-time';
import { EventIcon } from './event-icon';
import { COMMON_TEXTS } from '../../../i18n/en/common';
import { clicksLeftOutText, offVideoText, REPLAY_TEXTS } from '../../../i18n/en/replay';

interface ReplayEventListProps {
  events: readonly ReplayEvent[];
  heatWindow: TimeWindow;
  onSeek: (seconds: number) => void;
  loading: boolean;
  offVideo: { messages: readonly OffVideoMessage[]; clicks: number };
}

/**
 * The events in video order, as a list beside the video: each seeks there; those in the heatmap's
 * window are marked (aria-current="time") and the list follows them while the video plays, unless
 * the reader is pointing at or working in it. Below, what was recorded with no video time.
 */
export function ReplayEventList({ events, heatWindow, onSeek, loading, offVideo }: ReplayEventListProps) {
  const headingId = useId();
  const scroller = useRef<HTMLDivElement>(null);
  const { from, to } = indexRange(events, heatWindow);

  useEffect(() => {
    const box = scroller.current;
    if (!box || typeof box.scrollTo !== 'function') return;
    if (box.matches(':hover') || box.contains(document.activeElement)) return;
    const item = box.querySelector<HTMLElement>(`[data-index="${Math.min(from, events.length - 1)}"]`);
    if (item) box.scrollTo({ top: Math.max(0, item.offsetTop - box.clientHeight / 3), behavior: 'smooth' });
  }, [from, events.length]);

  const offCount = offVideo.messages.length + offVideo.clicks;
  return (
    <section className="replay-events" aria-labelledby={headingId} aria-busy={loading}>
      <div className="replay-events-inner">
        <h3 id={headingId} className="replay-events-heading">
          {REPLAY_TEXTS.events} <span className="replay-events-count">{events.length}</span>
        </h3>
        <div ref={scroller} className="replay-events-scroller">
          {events.length === 0 ? (
            <p className="replay-empty">{loading ? REPLAY_TEXTS.loadingRecords : REPLAY_TEXTS.noEvents}</p>
          ) : (
            <ol className="replay-event-list">
              {events.map((event, index) => {
                const current = index >= from && index < to;
                return (
                  <li key={event.id} data-index={index}>
                    {/* Named by what it shows (WCAG 2.5.3, label in name): '0:03 Message · Pat: Hello'. */}
                    <button
                      type="button"
                      className={`replay-event${current ? ' current' : ''}`}
                      aria-current={current ? 'time' : undefined}
                      onClick={() => onSeek(event.at)}
                    >
                      <span className={`replay-event-icon replay-kind-${event.kind}`}>
                        <EventIcon event={event} size={16} />
                      </span>{' '}
                      <span className="replay-event-at">{formatVideoTime(event.at)}</span>{' '}
                      <span className="replay-event-body">
                        <span className="replay-event-title">
                          {eventListTitle(event)}
                          {/* Spaces between the parts as their own text: names trim each part's own. */}
                          {event.who ? (
                            <>
                              {' '}
                              <span className="replay-event-who">· {event.who}</span>
                            </>
                          ) : null}
                          {/* In the title's own text, so the name reads 'Pat: text', not 'Pat : text'. */}
                          {event.text ? ':' : null}
                        </span>
                        {event.text ? (
                          <>
                            {' '}
                            <span className="replay-event-text">{event.text}</span>
                          </>
                        ) : null}
                      </span>
                    </button>
                  </li>
                );
              })}
            </ol>
          )}
          {offCount > 0 ? (
            <details className="replay-off-video">
              <summary>{offVideoText(offCount)}</summary>
              <p className="replay-off-video-why">{REPLAY_TEXTS.offVideoWhy}</p>
              {offVideo.messages.length > 0 ? (
                <ul>
                  {offVideo.messages.map((message) => (
                    <li key={message.id}>
                      <span className="replay-event-title">
                        {message.kind === 'reaction' ? COMMON_TEXTS.reaction : COMMON_TEXTS.message}
                        <span className="replay-event-who"> · {message.who}</span>
                      </span>{' '}
                      <RecordTime iso={message.time} className="replay-off-video-time" />
                      <span className="replay-event-text">{message.text}</span>
                    </li>
                  ))}
                </ul>
              ) : null}
              {offVideo.clicks > 0 ? (
                <p className="replay-off-video-clicks">{clicksLeftOutText(offVideo.clicks)}</p>
              ) : null}
            </details>
          ) : null}
        </div>
      </div>
    </section>
  );
}
