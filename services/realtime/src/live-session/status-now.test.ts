import { statusNow } from './live-session.service';

describe('the video status a late participant is given', () => {
  const sessionId = 'session';

  it('is the stored one when paused, stamped now', () => {
    expect(
      statusNow({ paused: true, currentTime: 42, playbackRate: 1, at: 1000 }, sessionId, 61_000),
    ).toEqual({
      paused: true,
      currentTime: 42,
      playbackRate: 1,
      at: 61_000,
      sessionId,
    });
  });

  it('has moved on by the time since it was stored, at its rate, when playing', () => {
    expect(statusNow({ paused: false, currentTime: 10, playbackRate: 1, at: 1000 }, sessionId, 3500)).toEqual(
      {
        paused: false,
        currentTime: 12.5,
        playbackRate: 1,
        at: 3500,
        sessionId,
      },
    );
    expect(
      statusNow({ paused: false, currentTime: 10, playbackRate: 2, at: 1000 }, sessionId, 3500).currentTime,
    ).toBe(15);
    // A replica whose clock is behind never sends the video backwards.
    const behind = statusNow({ paused: false, currentTime: 10, playbackRate: 1, at: 5000 }, sessionId, 3500);
    expect([behind.currentTime, behind.at]).toEqual([10, 5000]);
  });
});
