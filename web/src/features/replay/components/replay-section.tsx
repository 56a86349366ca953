import type { SessionInfo } from '@uis/proto';
import { lazy, Suspense, useId, useRef, useState } from 'react';
import { useApiQuery } from '../../../api/queries';
import { Icon } from '../../../components/ui/icon';
import { useNearViewport } from '../hooks/use-near-viewport';
import { replaySource, type ReplaySource } from '../lib/replay-source';
import '../replay-section.css';
import { REPLAY_TEXTS } from '../../../i18n/en/replay';

// The replay (its player, timeline, heatmap and simpleheat) is a chunk of its own, loaded when the
// section comes near the viewport: the editor's first load does not carry it.
const ReplayPanel = lazy(() => import('./replay-panel').then((module) => ({ default: module.ReplayPanel })));

/**
 * The session editor's Replay section, for a video session with an uploaded video or a stream
 * session with a source; nothing for the others.
 */
export function ReplaySection({ sessionId, info }: { sessionId: string; info: SessionInfo }) {
  // The same query as the Source field's: one request.
  const video = useApiQuery('getVideoInfo', { sessionId }, { enabled: info.type === 'video' });
  const source = replaySource(info, video.data?.name ?? null);
  return source ? <ReplayFrame sessionId={sessionId} source={source} /> : null;
}

function ReplayFrame({ sessionId, source }: { sessionId: string; source: ReplaySource }) {
  const headingId = useId();
  const section = useRef<HTMLElement>(null);
  const near = useNearViewport(section);
  const [asked, setAsked] = useState(false);
  return (
    <section ref={section} className="replay-section" aria-labelledby={headingId}>
      <h2 id={headingId} className="replay-section-heading">
        <Icon name="replay" /> {REPLAY_TEXTS.replay}
      </h2>
      {near || asked ? (
        <Suspense fallback={<p className="replay-section-note">{REPLAY_TEXTS.loadingReplay}</p>}>
          <ReplayPanel sessionId={sessionId} source={source} />
        </Suspense>
      ) : (
        <button type="button" className="button secondary replay-section-load" onClick={() => setAsked(true)}>
          <Icon name="play_circle" /> {REPLAY_TEXTS.showReplay}
        </button>
      )}
    </section>
  );
}
