import { PEER_INSTANCE_MAX_CHARS } from '@uis/proto/browser';
import { Peer, type PeerOptions } from 'peerjs';
import type { CallMedia, CallPeer, NetworkWatch } from './call-ports';

/** A random instance for peerIdFor: one per page, so two tabs of one user are two peers. */
export function randomInstance(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(PEER_INSTANCE_MAX_CHARS));
  return Array.from(bytes, (byte) => (byte % 36).toString(36)).join('');
}

/** The browser's devices; the stand-ins are a never-painted black canvas and an idle audio graph. */
export function browserMedia(): CallMedia {
  let silence: { context: AudioContext; track: MediaStreamTrack } | null = null;
  let black: MediaStreamTrack | null = null;
  return {
    getUserMedia(constraints) {
      if (!navigator.mediaDevices?.getUserMedia) {
        return Promise.reject(new TypeError('navigator.mediaDevices is not available (insecure context?)'));
      }
      return navigator.mediaDevices.getUserMedia(constraints);
    },
    standIn(kind) {
      if (kind === 'audio') {
        if (!silence) {
          const context = new AudioContext();
          const [track] = context.createMediaStreamDestination().stream.getAudioTracks();
          if (!track) throw new Error('no silent audio track');
          silence = { context, track };
        }
        return silence.track;
      }
      if (!black) {
        const canvas = document.createElement('canvas');
        canvas.width = 16;
        canvas.height = 12;
        canvas.getContext('2d')?.fillRect(0, 0, canvas.width, canvas.height);
        const [track] = canvas.captureStream(0).getVideoTracks();
        if (!track) throw new Error('no black video track');
        black = track;
      }
      return black;
    },
    stream: (tracks) => new MediaStream(tracks),
    release() {
      black?.stop();
      black = null;
      if (silence) {
        silence.track.stop();
        void silence.context.close().catch(() => undefined);
        silence = null;
      }
    },
  };
}

/** `online`, and the Network Information API's `change` where the browser has it (Chromium). */
export const browserNetworkWatch: NetworkWatch = (onChange) => {
  const connection = (navigator as Navigator & { connection?: EventTarget }).connection;
  window.addEventListener('online', onChange);
  connection?.addEventListener('change', onChange);
  return () => {
    window.removeEventListener('online', onChange);
    connection?.removeEventListener('change', onChange);
  };
};

/** PeerJS's Peer: its typings fit CallPeer, the parts LiveCall uses. */
export const createPeerJsPeer = (id: string, options: PeerOptions): CallPeer => new Peer(id, options);
