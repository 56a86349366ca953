import { useCallback, useId, useMemo, useState } from 'react';
import { usePlayerIn, type MakePlayer } from '../../../components/player/use-player-in';
import { apiUrl } from '../../../config/app-config';
import { createVideoElementPlayer } from '../../../playback/players/video-element-player';
import { videoAssetPath } from '../../../playback/players/video-asset';
import { useReplayRecords } from '../hooks/use-replay-data';
import { useVideoClock } from '../hooks/use-video-clock';
import { REPLAY_KINDS, type ReplayKind } from '../lib/replay-events';
import {
  filterClicks,
  filterEvents,
  filterOffVideo,
  peopleOf,
  type ReplayFilter,
} from '../lib/replay-filter';
import type { ReplaySource } from '../lib/replay-source';
import {
  DEFAULT_WINDOW_SIZE,
  WINDOW_SIZES,
  indexRange,
  windowAround,
  type WindowSize,
} from '../lib/time-window';
import { timelineEnd } from '../lib/timeline-scale';
import { formatSpan, formatVideoTime } from '../lib/video-time';
import { ReplayEventList } from './replay-event-list';
import { ReplayFilters } from './replay-filters';
import { ReplayStage } from './replay-stage';
import { ReplayTimeline } from './replay-timeline';
import { streamNotPlayedText } from '../../../i18n/en/common';
import '../replay.css';
import { heatmapText, REPLAY_TEXTS } from '../../../i18n/en/replay';

/** The researcher reviews with the player's own controls and its sound. */
function makerFor(sessionId: string, kind: ReplaySource['kind'], location: string): MakePlayer {
  if (kind === 'video') {
    return (container, signal) =>
      createVideoElementPlayer(container, apiUrl(videoAssetPath(sessionId, location)), {
        controls: true,
        label: REPLAY_TEXTS.replayVideo,
        className: 'replay-video-element',
        signal,
      });
  }
  // The stream players (and their libraries) load only for stream sessions, as in the live session.
  return (container, signal) =>
    import('../../../playback/players/stream-player')
      .then((module) =>
        module.createStreamPlayer(container, location, {
          controls: true,
          label: REPLAY_TEXTS.replayVideo,
          signal,
        }),
      )
      .catch((error: unknown) => {
        const why = error instanceof Error ? error.message : String(error);
        throw new Error(streamNotPlayedText(why));
      });
}

const windowName = (size: WindowSize) => (size === null ? REPLAY_TEXTS.wholeVideo : formatSpan(size));

/**
 * The session replayed: its video with the participants' clicks as a heatmap of the
 * chosen window around the current position, the events in video order beside it, and a timeline of
 * every kind of event under it; filters by person and kind. Scrubbing the timeline or choosing an
 * event seeks the video; the heatmap, the playhead and the list follow the video.
 */
export function ReplayPanel({ sessionId, source }: { sessionId: string; source: ReplaySource }) {
  const location = source.kind === 'video' ? source.name : source.url;
  const make = useMemo(() => makerFor(sessionId, source.kind, location), [sessionId, source.kind, location]);
  const { hostRef, player, video, failure } = usePlayerIn(make);
  const clock = useVideoClock(player, video);
  const records = useReplayRecords(sessionId);
  const [who, setWho] = useState<string | null>(null);
  const [kinds, setKinds] = useState<ReadonlySet<ReplayKind>>(() => new Set(REPLAY_KINDS));
  const [windowSize, setWindowSize] = useState<WindowSize>(DEFAULT_WINDOW_SIZE);
  const id = useId();

  const filter: ReplayFilter = useMemo(() => ({ who, kinds }), [who, kinds]);
  const events = useMemo(() => filterEvents(records.events, filter), [records.events, filter]);
  const clicks = useMemo(() => filterClicks(records.clicks, filter), [records.clicks, filter]);
  const { offVideoMessages, offVideoClicks } = records;
  const offVideo = useMemo(
    () => filterOffVideo({ offVideoMessages, offVideoClicks }, filter),
    [offVideoMessages, offVideoClicks, filter],
  );
  const people = useMemo(
    () => peopleOf(records.events, records.clicks, [...offVideoMessages, ...offVideoClicks]),
    [records.events, records.clicks, offVideoMessages, offVideoClicks],
  );
  const counts = useMemo(() => {
    const byKind = Object.fromEntries(REPLAY_KINDS.map((kind) => [kind, 0])) as Record<ReplayKind, number>;
    for (const event of records.events) byKind[event.kind] += 1;
    byKind.click = records.clicks.length;
    return byKind;
  }, [records.events, records.clicks]);

  const latest = Math.max(records.events.at(-1)?.at ?? 0, records.clicks.at(-1)?.at ?? 0);
  const end = timelineEnd(clock.duration, latest);
  const heatWindow = windowAround(clock.time, windowSize);
  // The heatmap redraws only when the window takes in or lets go of a click.
  const { from, to } = indexRange(clicks, heatWindow);
  const windowClicks = useMemo(() => clicks.slice(from, to), [clicks, from, to]);
  const heatCaption = heatmapText(
    windowClicks.length,
    windowSize === null
      ? null
      : { from: formatVideoTime(heatWindow.start), to: formatVideoTime(heatWindow.end) },
  );

  const toggleKind = useCallback((kind: ReplayKind) => {
    setKinds((shown) => {
      const next = new Set(shown);
      if (!next.delete(kind)) next.add(kind);
      return next;
    });
  }, []);

  return (
    <div className="replay-panel">
      <ReplayFilters
        people={people}
        who={who}
        onWho={setWho}
        kinds={kinds}
        onToggleKind={toggleKind}
        counts={counts}
      />
      <div className="replay-main">
        <div className="replay-stage-column">
          <ReplayStage
            hostRef={hostRef}
            video={video}
            ready={player !== null}
            failure={failure}
            kind={source.kind}
            clicks={kinds.has('click') ? windowClicks : null}
            heatLabel={heatCaption}
          />
          <div className="replay-heat-bar">
            <label className="replay-window-field" htmlFor={`${id}-window`}>
              {REPLAY_TEXTS.heatmapWindow}
            </label>
            <select
              id={`${id}-window`}
              className="text-input replay-window-select"
              value={windowSize ?? 'all'}
              onChange={(event) =>
                setWindowSize(
                  event.target.value === 'all' ? null : (Number(event.target.value) as WindowSize),
                )
              }
            >
              {WINDOW_SIZES.map((size) => (
                <option key={size ?? 'all'} value={size ?? 'all'}>
                  {windowName(size)}
                </option>
              ))}
            </select>
            <span className="replay-heat-caption" data-testid="heat-caption">
              {kinds.has('click') ? heatCaption : REPLAY_TEXTS.clicksHidden}
            </span>
          </div>
        </div>
        <ReplayEventList
          events={events}
          heatWindow={heatWindow}
          onSeek={clock.seek}
          loading={records.loading}
          offVideo={offVideo}
        />
      </div>
      <ReplayTimeline
        end={end}
        time={clock.time}
        heatWindow={heatWindow}
        events={events}
        clicks={clicks}
        kinds={kinds}
        onSeek={clock.seek}
        disabled={player === null}
        playbackFailed={records.playbackFailed}
      />
    </div>
  );
}
