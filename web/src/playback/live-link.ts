import type { Ack, ClientEventAcks, ClientPayloadOf, ServerPayloadOf } from '@uis/proto';
import type { ConnectionStatus } from '@uis/live-client';

/**
 * The part of the live client's LiveConnection the playback sync and the prompt runner use: its server clock,
 * its connection status, the events they hear and the ones they send. LiveConnection is one; the
 * unit tests pass a fake with a clock of their own.
 */
export interface LiveLink {
  readonly clock: { now(): number };
  readonly state: { readonly status: ConnectionStatus };
  subscribe(listener: (state: { readonly status: ConnectionStatus }) => void): () => void;
  on(event: 'videoStatus', handler: (status: ServerPayloadOf<'videoStatus'>) => void): () => void;
  on(event: 'syncVideoStatus', handler: (payload: ServerPayloadOf<'syncVideoStatus'>) => void): () => void;
  ask(
    event: 'videoStatus',
    payload: ClientPayloadOf<'videoStatus'>,
  ): Promise<Ack<ClientEventAcks['videoStatus']>>;
  ask(
    event: 'syncVideoStatus',
    payload: ClientPayloadOf<'syncVideoStatus'>,
  ): Promise<Ack<ClientEventAcks['syncVideoStatus']>>;
  ask(
    event: 'firePrompt',
    payload: ClientPayloadOf<'firePrompt'>,
  ): Promise<Ack<ClientEventAcks['firePrompt']>>;
}
