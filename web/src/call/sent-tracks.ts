import type { CallConnection, CallMedia } from './call-ports';
import { MEDIA_KINDS, type LocalMedia, type MediaKind, type MediaProblem } from './call-state';

function problemOf(error: unknown): MediaProblem {
  const name = error instanceof Error || error instanceof DOMException ? error.name : '';
  switch (name) {
    case 'NotAllowedError':
    case 'SecurityError':
      return 'blocked';
    case 'NotFoundError':
    case 'OverconstrainedError':
      return 'missing';
    case 'NotReadableError':
    case 'AbortError':
      return 'busy';
    case 'TypeError':
      return 'unsupported';
    default:
      return 'failed';
  }
}

export interface Acquired {
  tracks: Partial<Record<MediaKind, MediaStreamTrack>>;
  problem: MediaProblem | null;
  missing: MediaKind[];
}

/**
 * Camera and microphone together; when that fails for want of one of them (not a refusal), each
 * alone, so a laptop without a camera still sends its voice.
 */
export async function acquire(media: CallMedia): Promise<Acquired> {
  const tracksOf = (stream: MediaStream) => ({
    audio: stream.getAudioTracks()[0],
    video: stream.getVideoTracks()[0],
  });
  let problem: MediaProblem;
  try {
    const tracks = tracksOf(await media.getUserMedia({ audio: true, video: true }));
    if (tracks.audio && tracks.video) return { tracks, problem: null, missing: [] };
    problem = 'missing';
    const missing = MEDIA_KINDS.filter((kind) => !tracks[kind]);
    return { tracks, problem, missing };
  } catch (error) {
    problem = problemOf(error);
  }
  if (problem === 'blocked' || problem === 'unsupported')
    return { tracks: {}, problem, missing: [...MEDIA_KINDS] };
  const tracks: Partial<Record<MediaKind, MediaStreamTrack>> = {};
  for (const kind of MEDIA_KINDS) {
    try {
      tracks[kind] = tracksOf(await media.getUserMedia({ [kind]: true }))[kind];
    } catch {
      // Missing too: reported with the problem of the first attempt.
    }
  }
  return { tracks, problem, missing: MEDIA_KINDS.filter((kind) => !tracks[kind]) };
}

/**
 * The camera and microphone this page sends on every call, and the stand-ins that take the place of
 * the missing ones (README.md, Media).
 */
export class SentTracks {
  private sent: Partial<Record<MediaKind, MediaStreamTrack>> = {};

  constructor(private readonly media: CallMedia) {}

  acquire(): Promise<Acquired> {
    return acquire(this.media);
  }

  /** Sends what was got from now on (in place of older tracks of its kind): the page's local media. */
  take(got: Acquired, muted: boolean): { local: LocalMedia; missing: MediaKind[] } {
    for (const kind of MEDIA_KINDS) {
      const track = got.tracks[kind];
      if (!track) continue;
      const old = this.sent[kind];
      if (old && old !== track) old.stop();
      this.sent[kind] = track;
    }
    if (this.sent.audio) this.sent.audio.enabled = !muted;
    const tracks = MEDIA_KINDS.flatMap((kind) => this.sent[kind] ?? []);
    const missing = MEDIA_KINDS.filter((kind) => !this.sent[kind]);
    const problem = missing.length > 0 ? (got.problem ?? 'missing') : null;
    const local: LocalMedia = {
      stream: tracks.length > 0 ? this.media.stream(tracks) : null,
      hasAudio: Boolean(this.sent.audio),
      hasVideo: Boolean(this.sent.video),
      muted,
      problem,
      acquiring: false,
    };
    return { local, missing };
  }

  setMuted(muted: boolean): void {
    if (this.sent.audio) this.sent.audio.enabled = !muted;
  }

  /** What a call sends: the devices this page has, stand-ins for the others. */
  outgoingStream(): MediaStream {
    return this.media.stream(MEDIA_KINDS.map((kind) => this.sent[kind] ?? this.media.standIn(kind)));
  }

  /** Stand-ins only make the offer and answer ask for audio and video: they are never sent. */
  silenceStandIns(connection: CallConnection): void {
    for (const sender of connection.peerConnection?.getSenders() ?? []) {
      const { track } = sender;
      if (track && !this.isSent(track)) sender.replaceTrack(null).catch(() => undefined);
    }
  }

  /** Devices found by a retry go out on a call under way, in place of the stand-ins. */
  sendRealTracks(connection: CallConnection): void {
    for (const transceiver of connection.peerConnection?.getTransceivers() ?? []) {
      const kind = transceiver.receiver.track.kind as MediaKind;
      const track = this.sent[kind];
      if (track && transceiver.sender.track !== track) {
        transceiver.sender.replaceTrack(track).catch(() => undefined);
      }
    }
  }

  /** Stops the devices and the stand-ins. */
  stop(): void {
    for (const track of Object.values(this.sent)) track.stop();
    this.sent = {};
    this.media.release();
  }

  private isSent(track: MediaStreamTrack): boolean {
    return track === this.sent.audio || track === this.sent.video;
  }
}
