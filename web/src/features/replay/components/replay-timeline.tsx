import { useEffect, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { Icon } from '../../../components/ui/icon';
import { useScrub } from '../hooks/use-scrub';
import {
  KIND_NAMES,
  type MarkerKind,
  type ReplayClick,
  type ReplayEvent,
  type ReplayKind,
} from '../lib/replay-events';
import { histogram, percentAt, ticks } from '../lib/timeline-scale';
import type { TimeWindow } from '../lib/time-window';
import { formatVideoTime } from '../lib/video-time';
import { KIND_ICONS } from './event-icon';
import { TimelineLane } from './timeline-lane';
import { clicksOverVideoText, REPLAY_TEXTS, timeOfText } from '../../../i18n/en/replay';

/** The lanes, top to bottom: what the player did, then what was shown, then what people did. */
const MARKER_LANES: readonly MarkerKind[] = ['playback', 'prompt', 'message', 'reaction'];
/** The click density strip's columns. */
const DENSITY_BINS = 120;
/** About one tick label per this many pixels of track. */
const TICK_SPACING_PX = 72;
/** The arrow keys step this far; Page Up and Page Down ten times as far. */
const KEY_STEP_S = 1;

interface ReplayTimelineProps {
  end: number;
  time: number;
  heatWindow: TimeWindow;
  events: readonly ReplayEvent[];
  clicks: readonly ReplayClick[];
  kinds: ReadonlySet<ReplayKind>;
  onSeek: (seconds: number) => void;
  /** No player yet: nothing to seek. */
  disabled: boolean;
  playbackFailed: boolean;
}

/** The track's width, followed through resizes (the tick labels are spaced by it). */
function useWidth() {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(600);
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => setWidth(element.clientWidth));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return { ref, width };
}

function LaneName({ kind, count }: { kind: ReplayKind; count: number }) {
  return (
    <div className={`replay-lane-name replay-kind-${kind}`} aria-hidden="true">
      <Icon name={KIND_ICONS[kind]} className="replay-kind-icon" />
      <span className="replay-lane-title">{KIND_NAMES[kind]}</span>
      <span className="replay-lane-count">{count}</span>
    </div>
  );
}

/**
 * The session on the video's clock: a scrubber (a slider: press or drag anywhere on it, or use the
 * keys) with the time ticks, the heatmap's window and the playhead; under it a lane per kind of
 * event, and the clicks' density. Pressing a lane seeks too; a marker seeks to its event.
 */
export function ReplayTimeline({
  end,
  time,
  heatWindow,
  events,
  clicks,
  kinds,
  onSeek,
  disabled,
  playbackFailed,
}: ReplayTimelineProps) {
  const scrub = useScrub(end, onSeek, disabled);
  const { ref, width } = useWidth();
  const tickList = useMemo(() => ticks(end, Math.max(2, Math.floor(width / TICK_SPACING_PX))), [end, width]);
  const lanes = useMemo(
    () =>
      MARKER_LANES.filter((kind) => kinds.has(kind)).map((kind) => ({
        kind,
        events: events.filter((event) => event.kind === kind),
      })),
    [events, kinds],
  );
  const density = useMemo(
    () =>
      histogram(
        clicks.map((click) => click.at),
        end,
        DENSITY_BINS,
      ),
    [clicks, end],
  );
  const densityMax = Math.max(1, ...density);
  const playhead = percentAt(time, end);
  const bandStart = percentAt(heatWindow.start, end);
  const bandWidth = percentAt(heatWindow.end, end) - bandStart;

  const onKeyDown = (event: KeyboardEvent) => {
    if (disabled) return;
    const step = event.key.startsWith('Page') ? KEY_STEP_S * 10 : KEY_STEP_S;
    const to =
      event.key === 'ArrowRight' || event.key === 'ArrowUp' || event.key === 'PageUp'
        ? time + step
        : event.key === 'ArrowLeft' || event.key === 'ArrowDown' || event.key === 'PageDown'
          ? time - step
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? end
              : null;
    if (to === null) return;
    event.preventDefault();
    onSeek(Math.min(end, Math.max(0, to)));
  };

  return (
    <div className="replay-timeline">
      <div className="replay-lane-name replay-clock" aria-hidden="true">
        {formatVideoTime(time)}
      </div>
      <div
        ref={ref}
        className="replay-scrubber"
        role="slider"
        tabIndex={disabled ? -1 : 0}
        aria-label={REPLAY_TEXTS.videoPosition}
        aria-valuemin={0}
        aria-valuemax={Math.round(end * 10) / 10}
        aria-valuenow={Math.round(time * 10) / 10}
        aria-valuetext={timeOfText(formatVideoTime(time), formatVideoTime(end))}
        aria-disabled={disabled || undefined}
        onKeyDown={onKeyDown}
        {...scrub}
      >
        {tickList.map((at) => (
          <span
            key={at}
            className={`replay-tick${percentAt(at, end) > 95 ? ' end' : ''}`}
            style={{ left: `${percentAt(at, end)}%` }}
          >
            <span className="replay-tick-label">{formatVideoTime(at)}</span>
          </span>
        ))}
        <span className="replay-knob" style={{ left: `${playhead}%` }} />
      </div>
      {lanes.map(({ kind, events: laneEvents }) => (
        <LaneRow key={kind} kind={kind} count={laneEvents.length}>
          <TimelineLane
            kind={kind}
            name={KIND_NAMES[kind]}
            events={laneEvents}
            end={end}
            onSeek={onSeek}
            scrub={scrub}
            note={kind === 'playback' && playbackFailed ? REPLAY_TEXTS.playbackLogNotLoaded : undefined}
          />
        </LaneRow>
      ))}
      {kinds.has('click') ? (
        <LaneRow kind="click" count={clicks.length}>
          <div className="replay-track replay-track-click" {...scrub}>
            <svg
              className="replay-density"
              viewBox={`0 0 ${DENSITY_BINS} ${densityMax}`}
              preserveAspectRatio="none"
              role="img"
              aria-label={clicksOverVideoText(clicks.length)}
            >
              {density.map((count, bin) =>
                count ? (
                  <rect key={bin} x={bin + 0.1} y={densityMax - count} width={0.8} height={count} />
                ) : null,
              )}
            </svg>
          </div>
        </LaneRow>
      ) : null}
      <div className="replay-overlay" aria-hidden="true">
        <span className="replay-window-band" style={{ left: `${bandStart}%`, width: `${bandWidth}%` }} />
        <span className="replay-playhead" style={{ left: `${playhead}%` }} />
      </div>
    </div>
  );
}

function LaneRow({ kind, count, children }: { kind: ReplayKind; count: number; children: ReactNode }) {
  return (
    <>
      <LaneName kind={kind} count={count} />
      {children}
    </>
  );
}
