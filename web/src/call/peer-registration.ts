import { peerIdFor } from '@uis/proto/browser';
import { createPeerJsPeer, randomInstance } from './browser-adapters';
import type { CallConnection, CallPeer, CallPeerError, LiveCallOptions } from './call-ports';
import type { CallSettingsRenewal } from './call-settings';
import { FATAL_PEER_ERRORS, type SignallingStatus } from './call-state';
import type { CallTimers } from './call-timers';
import { peerOptionsFor } from './peer-options';

/** What the registration tells LiveCall. */
export interface RegistrationEvents {
  /** Registering (again), or failed for good. */
  status(signalling: Extract<SignallingStatus, 'connecting' | 'reconnecting' | 'failed'>): void;
  /** The call settings or the token refresh before registering failed; it tries again. */
  settingsFailed(): void;
  /** The peer is registered. */
  open(): void;
  call(connection: CallConnection): void;
  error(error: CallPeerError): void;
  /** The peer was destroyed (its calls with it); a new one follows unless the error was fatal. */
  destroyed(): void;
}

type RegistrationOptions = Pick<
  LiveCallOptions,
  'userId' | 'beforeRegister' | 'createPeer' | 'location' | 'instance'
>;

/**
 * The page's registration with the call server (PeerJS on /stream): a peer under a new id after a
 * refusal, a reconnect after a drop (calls under way go on meanwhile), none after a fatal error.
 */
export class PeerRegistration {
  private current: CallPeer | null = null;
  private peerId: string | null = null;
  private attempts = 0;
  private lastError: string | null = null;

  constructor(
    private readonly sessionId: string,
    private readonly options: RegistrationOptions,
    private readonly settings: CallSettingsRenewal,
    private readonly timers: CallTimers,
    private readonly backoff: (attempt: number) => number,
    private readonly closed: () => boolean,
    private readonly events: RegistrationEvents,
  ) {}

  get peer(): CallPeer | null {
    return this.current;
  }

  /** This page's peer id on the call server (null before the first registration). */
  get id(): string | null {
    return this.peerId;
  }

  async register(): Promise<void> {
    this.events.status(this.attempts === 0 ? 'connecting' : 'reconnecting');
    try {
      if (!this.settings.current) await this.settings.load();
      await this.options.beforeRegister?.();
    } catch {
      if (this.closed()) return;
      this.events.settingsFailed();
      this.retryLater(() => void this.register());
      return;
    }
    if (this.closed()) return;
    const peerId = peerIdFor(
      this.sessionId,
      this.options.userId,
      (this.options.instance ?? randomInstance)(),
    );
    const peer = (this.options.createPeer ?? createPeerJsPeer)(
      peerId,
      peerOptionsFor(this.settings.current!, this.options.location ?? window.location),
    );
    this.current = peer;
    this.peerId = peerId;
    this.lastError = null;
    peer.on('open', () => {
      if (peer !== this.current || this.closed()) return;
      this.attempts = 0;
      this.events.open();
    });
    peer.on('call', (connection) => this.events.call(connection));
    peer.on('error', (error) => {
      if (peer !== this.current || this.closed()) return;
      this.lastError = error.type;
      this.events.error(error);
    });
    peer.on('disconnected', () => {
      if (peer !== this.current || this.closed() || peer.destroyed) return;
      // Calls under way go on without the call server; new ones wait for the registration.
      this.events.status('reconnecting');
      this.retryLater(async () => {
        try {
          await this.options.beforeRegister?.();
        } catch {
          // Registering with the old token fails too, and this loop tries again.
        }
        if (peer === this.current && !this.closed() && peer.disconnected && !peer.destroyed) peer.reconnect();
      });
    });
    peer.on('close', () => {
      if (peer !== this.current || this.closed()) return;
      // Destroyed by PeerJS (a refusal before the first registration): a new peer, under a new id.
      this.current = null;
      this.events.destroyed();
      if (this.lastError && FATAL_PEER_ERRORS.has(this.lastError)) {
        this.events.status('failed');
        return;
      }
      this.events.status('reconnecting');
      this.retryLater(() => void this.register());
    });
  }

  /** Leaves the call server. */
  destroy(): void {
    this.current?.destroy();
    this.current = null;
  }

  private retryLater(action: () => void | Promise<void>): void {
    const attempt = this.attempts;
    this.attempts += 1;
    this.timers.later(this.backoff(attempt), action);
  }
}
