import { useEffect, useState, type RefObject } from 'react';
import { pictureBox, type Box } from '../../../playback/clicks/click-capture';
import { pictureOf } from '../../../components/player/use-player-in';
import { HeatmapCanvas } from './heatmap-canvas';
import { COMMON_TEXTS } from '../../../i18n/en/common';

interface ReplayStageProps {
  hostRef: RefObject<HTMLDivElement | null>;
  /** The player's <video>, when it has one (its picture's size places the heatmap). */
  video: HTMLVideoElement | null;
  ready: boolean;
  failure: string | null;
  kind: 'video' | 'stream';
  /** The clicks the heatmap shows, or null when clicks are filtered out. */
  clicks: readonly { x: number; y: number }[] | null;
  heatLabel: string;
}

const NO_BOX: Box = { left: 0, top: 0, width: 0, height: 0 };

/**
 * Where the picture is drawn in the stage: the <video> letterboxes it (object-fit: contain); an
 * embedded player fills the stage. Followed through resizes and a new picture size.
 */
function usePictureFrame(hostRef: RefObject<HTMLDivElement | null>, video: HTMLVideoElement | null) {
  const [frame, setFrame] = useState<Box>(NO_BOX);
  const [aspect, setAspect] = useState<number | null>(null);
  useEffect(() => {
    const host = hostRef.current;
    if (!host) return;
    const measure = () => {
      const picture = pictureOf(video);
      setAspect(picture ? picture.width / picture.height : null);
      const next = pictureBox(
        { left: 0, top: 0, width: host.clientWidth, height: host.clientHeight },
        picture,
      );
      setFrame((previous) =>
        previous.left === next.left &&
        previous.top === next.top &&
        previous.width === next.width &&
        previous.height === next.height
          ? previous
          : next,
      );
    };
    measure();
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure);
    observer?.observe(host);
    // A <video> says its picture's size on loadedmetadata, and again on 'resize' (a stream's next rendition).
    video?.addEventListener('resize', measure);
    video?.addEventListener('loadedmetadata', measure);
    return () => {
      observer?.disconnect();
      video?.removeEventListener('resize', measure);
      video?.removeEventListener('loadedmetadata', measure);
    };
  }, [hostRef, video]);
  return { frame, aspect };
}

/** The replay's video area: the player, the click heatmap over its picture, and its loading or failure. */
export function ReplayStage({ hostRef, video, ready, failure, kind, clicks, heatLabel }: ReplayStageProps) {
  const { frame, aspect } = usePictureFrame(hostRef, video);
  return (
    <div
      className={`replay-stage replay-stage-${kind}`}
      style={aspect ? { ['--replay-aspect' as string]: String(aspect) } : undefined}
    >
      {/* The player puts its own elements in here; React keeps out of it. */}
      <div ref={hostRef} className="replay-host" />
      {ready && clicks ? <HeatmapCanvas frame={frame} clicks={clicks} label={heatLabel} /> : null}
      {failure ? (
        <p className="replay-stage-note" role="alert">
          {failure}
        </p>
      ) : !ready ? (
        <p className="replay-stage-note">{COMMON_TEXTS.loadingVideo}</p>
      ) : null}
    </div>
  );
}
