import { useEffect, useRef, useState } from 'react';
import { Icon } from '../../../components/ui/icon';
import { LIVE_SESSION_TEXTS } from '../../../i18n/en/live-session';

interface CallTileProps {
  /** Their audio and video (or this page's own camera); null while there is none. */
  stream: MediaStream | null;
  /** Shown under the picture and as the tile's accessible name. */
  name: string;
  /** This page's own camera: always muted here (no echo, spec section 4) and mirrored. */
  self?: boolean;
  /** A line shown while there is no picture ('Connecting…', 'Camera off'). */
  note?: string;
  className?: string;
}

/** The picture is there once a frame with a size has arrived (a stream without video never has one). */
const hasPicture = (video: HTMLVideoElement) => video.readyState >= 2 && video.videoWidth > 0;

/**
 * One person of the call: a <video> for their stream, their name, and a stand-in while no picture
 * comes. A browser that blocks sound without a click gets the video muted and a button to turn the
 * sound on, so the picture never waits for the click.
 */
export function CallTile({ stream, name, self = false, note, className }: CallTileProps) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const [picture, setPicture] = useState(false);
  const [soundBlocked, setSoundBlocked] = useState(false);

  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    video.muted = self;
    video.srcObject = stream;
    setSoundBlocked(false);
    setPicture(false);
    if (!stream) return;
    const update = () => setPicture(hasPicture(video));
    const events = ['loadeddata', 'resize', 'playing', 'emptied'] as const;
    for (const event of events) video.addEventListener(event, update);
    Promise.resolve()
      .then(() => video.play())
      .catch((error: unknown) => {
        if (error instanceof DOMException && error.name === 'NotAllowedError' && !video.muted) {
          video.muted = true;
          setSoundBlocked(true);
          return video.play();
        }
      })
      .catch(() => undefined);
    return () => {
      for (const event of events) video.removeEventListener(event, update);
    };
  }, [stream, self]);

  const turnSoundOn = () => {
    const video = videoRef.current;
    if (!video) return;
    video.muted = false;
    setSoundBlocked(false);
    video.play().catch(() => undefined);
  };

  return (
    <figure
      className={`call-tile${self ? ' self' : ''}${className ? ` ${className}` : ''}`}
      aria-label={name}
    >
      <video ref={videoRef} className="call-tile-video" autoPlay playsInline muted={self} />
      {!picture && (
        <div className="call-tile-standin">
          <Icon name={self ? 'videocam_off' : 'person'} size={40} />
          {note && <span className="call-tile-note">{note}</span>}
        </div>
      )}
      <figcaption className="call-tile-name">{name}</figcaption>
      {soundBlocked && (
        <button type="button" className="button call-tile-sound" onClick={turnSoundOn}>
          <Icon name="volume_up" size={18} />
          {LIVE_SESSION_TEXTS.turnOnSound}
        </button>
      )}
    </figure>
  );
}
