import type { MonitorSnapshot, MonitoredParticipant } from '@uis/proto';
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeLiveConnection } from '../../../testing/fake-live-connection';
import { MonitorPanel } from './monitor-panel';
import { COMMON_TEXTS } from '../../../i18n/en/common';
import { CALL_LINK_TEXTS, LIVE_SESSION_TEXTS } from '../../../i18n/en/live-session';

const sessionId = '6f1c2a8e-1d7b-4c1e-9a55-0b9f3f1e2d10';
const now = 1_764_000_000_000;
const person = (name: string, change: Partial<MonitoredParticipant>): MonitoredParticipant => ({
  userId: crypto.randomUUID(),
  name,
  email: `${name.toLowerCase()}@uni.test`,
  connected: true,
  since: now - 125_000,
  firstJoined: now - 125_000,
  reconnects: 0,
  leftAt: null,
  playback: null,
  call: null,
  sound: null,
  visible: null,
  ...change,
});

describe('the researcher’s monitor', () => {
  it('asks the server and shows who is there, their drift, their call, and who left', async () => {
    const snapshot: MonitorSnapshot = {
      serverTime: now,
      participants: [
        person('Pat', {
          reconnects: 2,
          playback: { currentTime: 62.5, paused: false, at: now, driftMs: 250 },
        }),
        person('Sam', { call: { connected: true, muted: true } }),
        person('Lee', { connected: false, since: null, leftAt: now - 30_000 }),
      ],
    };
    const live = fakeLiveConnection({ monitor: () => snapshot });
    render(<MonitorPanel connection={live.connection} sessionId={sessionId} />);

    const pat = await screen.findByRole('listitem', { name: 'Pat, connected' });
    expect(live.asks('monitor')).toEqual([{ sessionId }]);
    expect(screen.getByText('2 connected, 1 left')).toBeTruthy();
    expect(within(pat).getByText('for 2 min')).toBeTruthy();
    expect(within(pat).getByText('2 reconnects')).toBeTruthy();
    expect(within(pat).getByTitle('Their video position').textContent).toBe('play_arrowplaying at 1:02.5');
    expect(within(pat).getByText('+250 ms').className).toContain('behind');
    const sam = screen.getByRole('listitem', { name: 'Sam, connected' });
    expect(within(sam).getByText('muted')).toBeTruthy();
    const lee = screen.getByRole('listitem', { name: 'Lee, left' });
    expect(within(lee).getByText('left 30 s ago')).toBeTruthy();
  });

  it('shows who is not connected to the call: still connecting, or unable to connect', async () => {
    const snapshot: MonitorSnapshot = {
      serverTime: now,
      participants: [
        person('Ada', { call: { connected: true, muted: false, state: 'connected' } }),
        person('Bo', { call: { connected: false, muted: true, state: 'connecting' } }),
        person('Cy', { call: { connected: false, muted: true, state: 'failed' } }),
        // An older client without `state`.
        person('Di', { call: { connected: false, muted: true } }),
      ],
    };
    const live = fakeLiveConnection({ monitor: () => snapshot });
    render(<MonitorPanel connection={live.connection} sessionId={sessionId} />);
    const callOf = async (name: string) =>
      within(await screen.findByRole('listitem', { name: `${name}, connected` })).getByText(
        /microphone on|muted/,
      ).parentElement!;
    expect((await callOf('Ada')).textContent).toBe('micmicrophone on');
    expect((await callOf('Bo')).title).toBe(CALL_LINK_TEXTS.connecting.title);
    expect((await callOf('Bo')).textContent).toContain(CALL_LINK_TEXTS.connecting.text);
    const cy = await callOf('Cy');
    expect(cy.textContent).toContain('not in the call: cannot connect');
    expect(cy.className).toContain('failed');
    expect((await callOf('Di')).textContent).toContain(CALL_LINK_TEXTS.connecting.text);
  });

  it('shows who plays the video without sound and whose tab is hidden', async () => {
    const snapshot: MonitorSnapshot = {
      serverTime: now,
      participants: [
        person('Ada', { sound: { muted: false }, visible: true }),
        person('Bo', { sound: { muted: true }, visible: false }),
        // An older client: it says neither.
        person('Cy', {}),
        // Gone: what they last said no longer counts.
        person('Di', {
          connected: false,
          since: null,
          leftAt: now - 5_000,
          sound: { muted: true },
          visible: false,
        }),
      ],
    };
    const live = fakeLiveConnection({ monitor: () => snapshot });
    render(<MonitorPanel connection={live.connection} sessionId={sessionId} />);
    const row = async (name: string, state = 'connected') =>
      within(await screen.findByRole('listitem', { name: `${name}, ${state}` }));

    const ada = await row('Ada');
    expect(ada.getByTitle(LIVE_SESSION_TEXTS.soundTitle).textContent).toBe(
      `volume_up${LIVE_SESSION_TEXTS.soundOn}`,
    );
    expect(ada.queryByText(LIVE_SESSION_TEXTS.tabHidden)).toBeNull();
    const bo = await row('Bo');
    const boSound = bo.getByTitle(LIVE_SESSION_TEXTS.soundTitle);
    expect(boSound.textContent).toBe(`volume_off${LIVE_SESSION_TEXTS.soundOff}`);
    expect(boSound.className).toContain('off');
    expect(bo.getByTitle(LIVE_SESSION_TEXTS.tabHiddenTitle).textContent).toBe(
      `visibility_off${LIVE_SESSION_TEXTS.tabHidden}`,
    );
    const cy = await row('Cy');
    expect(cy.queryByTitle(LIVE_SESSION_TEXTS.soundTitle)).toBeNull();
    expect(cy.queryByTitle(LIVE_SESSION_TEXTS.tabHiddenTitle)).toBeNull();
    const di = await row('Di', 'left');
    expect(di.queryByTitle(LIVE_SESSION_TEXTS.soundTitle)).toBeNull();
    expect(di.queryByText(LIVE_SESSION_TEXTS.tabHidden)).toBeNull();
  });

  it('says so when nobody has joined, and asks nothing while disconnected', async () => {
    const live = fakeLiveConnection({ monitor: () => ({ serverTime: now, participants: [] }) });
    const { unmount } = render(<MonitorPanel connection={live.connection} sessionId={sessionId} />);
    expect(await screen.findByText(COMMON_TEXTS.nobodyJoined)).toBeTruthy();
    unmount();
    const away = fakeLiveConnection({ monitor: () => ({ serverTime: now, participants: [] }) });
    away.setState({ status: 'reconnecting' });
    render(<MonitorPanel connection={away.connection} sessionId={sessionId} />);
    expect(away.asks('monitor')).toEqual([]);
  });
});
