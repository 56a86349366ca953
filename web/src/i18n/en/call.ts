import type { PeerErrorType } from '@uis/proto';
import type { MediaKind, MediaProblem } from '../../call/call-state';

/** Each PeerJS error kind of spec section 8, as a sentence a participant can act on. */
export const PEER_ERROR_TEXTS: Record<PeerErrorType, string> = {
  'browser-incompatible':
    'This browser cannot make video calls. Open the session in a recent Chrome, Edge, Firefox or Safari.',
  disconnected: 'The call lost its link to the call server, so no new calls can start until it reconnects.',
  'invalid-id': 'The call server refused this page’s call id. Reload the page to join the call.',
  'invalid-key': 'The call server refused this app’s key, so the call cannot start. Tell the study team.',
  network: 'Lost the connection to the call server. Reconnecting…',
  'peer-unavailable':
    'The other side of the call is not connected. The call starts again when they are back.',
  'ssl-unavailable': 'The call server needs a secure (https) connection, which is not available here.',
  'server-error': 'The call server could not be reached. Trying again…',
  'socket-error': 'The connection to the call server failed. Reconnecting…',
  'socket-closed': 'The connection to the call server closed unexpectedly. Reconnecting…',
  'unavailable-id': 'This page’s call id is still in use by an earlier connection. Trying again…',
  webrtc: 'The browser could not set up the audio and video connection. Trying again…',
};

export const CALL_TEXTS = {
  settings: 'The call settings could not be loaded. Trying again…',
  iceFailed:
    'The video call could not connect from this network. Try another network (a phone’s hotspot, or home Wi-Fi instead of a campus or office one), or turn off a VPN. Trying again…',
  relayRefused:
    'The call’s relay server turned this browser away, so the call cannot get through this network. Reload the page; if that does not help, tell the study team.',
  ended: 'You have left the call.',
  sessionEnded: 'The live session has ended, and the call with it.',
} as const;

/** What failed when getting the camera and microphone: the line under the spec's toast. */
export function mediaProblemText(problem: MediaProblem, missing: readonly MediaKind[]): string {
  const what =
    missing.length === 2 ? 'camera and microphone' : missing[0] === 'audio' ? 'microphone' : 'camera';
  const rest =
    missing.length === 2
      ? 'You can see and hear the call, but others cannot see or hear you.'
      : missing[0] === 'audio'
        ? 'Others can see you but not hear you.'
        : 'Others can hear you but not see you.';
  switch (problem) {
    case 'blocked':
      return `The browser blocked your ${what}: allow ${missing.length === 2 ? 'them' : 'it'} for this site, then retry. ${rest}`;
    case 'missing':
      return `No ${missing.length === 2 ? 'camera or microphone' : what} was found. ${rest}`;
    case 'busy':
      return `Your ${what} ${missing.length === 2 ? 'are' : 'is'} in use by another application. ${rest}`;
    case 'unsupported':
      return `This page cannot use a camera or microphone (it needs https or a recent browser). ${rest}`;
    case 'failed':
      return `Your ${what} could not be started. ${rest}`;
  }
}

/** The researcher's tile on a participant's page. */
export const RESEARCHER_LABEL = 'Researcher';
