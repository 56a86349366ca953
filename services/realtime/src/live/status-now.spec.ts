import { statusNow } from './live-session.service';

describe('the video status a late participant is given', () => {
  const sessionId = 'session';

  it('is the stored one when paused', () => {
    expect(statusNow({ paused: true, currentTime: 42, at: 1000 }, sessionId, 61_000)).toEqual({
      paused: true,
      currentTime: 42,
      sessionId,
    });
  });

  it('has moved on by the time since it was stored when playing', () => {
    expect(statusNow({ paused: false, currentTime: 10, at: 1000 }, sessionId, 3500)).toEqual({
      paused: false,
      currentTime: 12.5,
      sessionId,
    });
    // A replica whose clock is behind never sends the video backwards.
    expect(statusNow({ paused: false, currentTime: 10, at: 5000 }, sessionId, 3500).currentTime).toBe(10);
  });
});
