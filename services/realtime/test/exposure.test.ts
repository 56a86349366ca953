import { waitFor } from '@uis/kit/testing';
import { ExposureOutbox } from '@uis/live-client';
import {
  EXPOSURE_BATCHES_PER_WINDOW,
  type ClientExposureEvent,
  type ExposureRecord,
  type MonitoredParticipant,
} from '@uis/proto';
import { randomUUID } from 'node:crypto';
import { REALTIME_TEXTS } from '../src/realtime.texts';
import { useTwoReplicas } from './support/two-replicas';

const event = (kind: ClientExposureEvent['kind'], videoTime: number | null = 4.5): ClientExposureEvent => ({
  eventId: randomUUID(),
  kind,
  videoTime,
  clientTime: Date.now(),
});

/** Who did what, in the order records stored it. */
const kindsOf = (log: ExposureRecord[]) => log.map((e) => `${e.name}:${e.kind}`);

/**
 * The exposure log across two replicas (the researcher on A, the participants on B): realtime
 * records joins and leaves itself, and stores what the participants' clients report in batches,
 * each event once, however often it is sent.
 */
describe('exposure over the live session', () => {
  const live = useTwoReplicas('exposure');
  const { liveSession } = live;
  const logOf = (sessionId: string) => live.stack.exposureLog(live.researcher, sessionId);

  it('stores a participant’s batch before acknowledging it, beside realtime’s own join and leave', async () => {
    const { sessionId, p1, p2 } = await liveSession();
    const batch = [event('unmute', 0), event('hidden', 12.25), event('visible', 20)];
    expect(await p1.ask('exposure', { sessionId, events: batch })).toEqual({
      status: 'SUCCESS',
      res: { stored: 3 },
    });
    // Stored when acknowledged: read at once, nothing to wait for.
    const log = await logOf(sessionId);
    const pats = log.filter((e) => e.name === 'Pat');
    expect(pats.map((e) => [e.kind, e.exposure_id, e.videoTime, e.clientTime])).toEqual([
      ['join', expect.any(String), null, null],
      ...batch.map((e) => [e.kind, e.eventId, e.videoTime, new Date(e.clientTime).toISOString()]),
    ]);
    expect(kindsOf(log.filter((e) => e.name === 'Pia'))).toEqual(['Pia:join']);

    p2.close();
    await waitFor(async () => kindsOf(await logOf(sessionId)).includes('Pia:leave'), 'Pia’s leave');
  });

  it('stores a batch sent again once, and the outbox loses nothing across a dropped connection', async () => {
    const { sessionId, p1 } = await liveSession();
    const batch = [event('stall', 30), event('stall_end', 30)];
    expect(await p1.ask('exposure', { sessionId, events: batch })).toMatchObject({ res: { stored: 2 } });
    // The acknowledgement was lost: the client sends the same events again.
    expect(await p1.ask('exposure', { sessionId, events: batch })).toMatchObject({ res: { stored: 0 } });

    const outbox = new ExposureOutbox(p1, sessionId, { flushMs: 60_000 });
    outbox.start();
    try {
      outbox.record('mute', 31);
      expect(outbox.unsent).toHaveLength(1);
      await outbox.flush();
      expect(outbox.unsent).toEqual([]);
      // The connection drops; what happens meanwhile waits, and goes once it is back.
      p1.socket.io.engine.close();
      await waitFor(() => p1.state.status !== 'connected', 'the drop');
      outbox.record('fullscreen_enter', 32);
      outbox.record('fullscreen_exit', 40);
      expect(outbox.unsent.map((e) => e.kind)).toEqual(['fullscreen_enter', 'fullscreen_exit']);
      await waitFor(() => p1.state.status === 'connected' && outbox.unsent.length === 0, 'the resend');
    } finally {
      outbox.stop();
    }
    const pats = kindsOf(await logOf(sessionId)).filter((kind) => kind.startsWith('Pat:'));
    // The drop is a leave and a join (the client's sync after the reconnect).
    expect(pats.filter((kind) => !['Pat:join', 'Pat:leave'].includes(kind))).toEqual([
      'Pat:stall',
      'Pat:stall_end',
      'Pat:mute',
      'Pat:fullscreen_enter',
      'Pat:fullscreen_exit',
    ]);
    await waitFor(
      async () => kindsOf(await logOf(sessionId)).filter((k) => k === 'Pat:join').length === 2,
      'the join after the reconnect',
    );
  });

  it('is for participants in the room: not the researcher, not an outsider, not once it has ended', async () => {
    const { sessionId, owner, p1 } = await liveSession();
    expect(await owner.ask('exposure', { sessionId, events: [event('mute')] })).toEqual({
      status: 'ERROR',
      res: { message: REALTIME_TEXTS.participantsReportExposure, code: 'FORBIDDEN' },
    });
    const outsider = await live.connect(live.b, live.stack.person('participant', { name: 'Otto' }));
    expect(await outsider.ask('exposure', { sessionId, events: [event('mute')] })).toMatchObject({
      status: 'ERROR',
      res: { code: 'FORBIDDEN' },
    });
    expect((await owner.endSession()).status).toBe('SUCCESS');
    // Pat's page closes on sessionEnded; a client that still sends is refused.
    await waitFor(() => p1.state.ended !== null, 'Pat told of the end');
    const late = await live.connect(live.b, live.pat);
    expect(await late.ask('exposure', { sessionId, events: [event('mute')] })).toMatchObject({
      status: 'ERROR',
      res: { code: 'SESSION_ENDED' },
    });
    expect(
      kindsOf(await logOf(sessionId)).filter((kind) => !kind.endsWith('join') && !kind.endsWith('leave')),
    ).toEqual([]);
  });

  it(`refuses more than ${EXPOSURE_BATCHES_PER_WINDOW} batches in a window, and the outbox keeps the refused`, async () => {
    const { sessionId, p1 } = await liveSession();
    const answers = [];
    for (let n = 0; n <= EXPOSURE_BATCHES_PER_WINDOW; n += 1) {
      answers.push(await p1.ask('exposure', { sessionId, events: [event('hidden')] }));
    }
    expect(answers.slice(0, -1).every((answer) => answer.status === 'SUCCESS')).toBe(true);
    expect(answers.at(-1)).toMatchObject({ status: 'ERROR', res: { code: 'RATE_LIMITED' } });

    const outbox = new ExposureOutbox(p1, sessionId, { flushMs: 60_000 });
    outbox.record('visible', 1);
    await outbox.flush();
    expect(outbox.unsent.map((e) => e.kind)).toEqual(['visible']);
  });

  it('shows the researcher who plays the video muted and whose tab is hidden', async () => {
    const { sessionId, owner, p1, p2 } = await liveSession();
    const at = Date.now();
    const playback = { currentTime: 1, paused: false, at };
    await p1.ask('presenceReport', { sessionId, playback, sound: { muted: true }, visible: false });
    // An older client: neither.
    await p2.ask('presenceReport', { sessionId, playback });
    const rows = new Map<string, MonitoredParticipant>();
    await waitFor(async () => {
      const answer = await owner.ask('monitor', { sessionId });
      if (answer.status !== 'SUCCESS') return false;
      for (const row of answer.res.participants) rows.set(row.name, row);
      return rows.get('Pat')?.sound !== null && rows.get('Pia')?.playback !== null;
    }, 'both reports in the monitor');
    expect(rows.get('Pat')).toMatchObject({ sound: { muted: true }, visible: false });
    expect(rows.get('Pia')).toMatchObject({ sound: null, visible: null });
  });
});
