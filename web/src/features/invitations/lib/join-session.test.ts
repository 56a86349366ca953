import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../api/client';
import { fakeApi, ok, refused } from '../../../testing/fake-api';
import { joinFailureOf, joinSession } from './join-session';
import { JOIN_SESSION_PAGE_TEXTS } from '../../../i18n/en/join-session';

describe('joinSession', () => {
  it('sends the token and the panel ids once, even when asked twice at the same time', async () => {
    const server = fakeApi({ '/joinSession': () => ok({ sessionId: 's-1' }) });
    const ids = { PROLIFIC_PID: 'abc123' };
    const [first, second] = await Promise.all([joinSession('tok', ids), joinSession('tok', ids)]);
    expect(first).toEqual({ sessionId: 's-1' });
    expect(second).toEqual(first);
    expect(server.to('/joinSession').map((request) => request.body)).toEqual([
      { token: 'tok', panelIds: { PROLIFIC_PID: 'abc123' } },
    ]);
  });

  it('asks again once the first request settled (trying again is a new attempt)', async () => {
    const server = fakeApi({ '/joinSession': () => refused(429, 'Too many attempts.', 'RATE_LIMITED') });
    await expect(joinSession('tok', {})).rejects.toThrow('Too many attempts.');
    await expect(joinSession('tok', {})).rejects.toThrow('Too many attempts.');
    expect(server.to('/joinSession')).toHaveLength(2);
  });
});

describe('joinFailureOf', () => {
  it("shows the server's sentence for what it refused; only too many attempts is worth a retry", () => {
    expect(joinFailureOf(new ApiError('This join link does not exist or was revoked.', 404))).toEqual({
      message: 'This join link does not exist or was revoked.',
      retryable: false,
    });
    expect(joinFailureOf(new ApiError('This session is full.', 409)).retryable).toBe(false);
    // An ended session: where to go next, not only that it ended.
    expect(joinFailureOf(new ApiError('This session has ended.', 409, 'SESSION_ENDED'))).toEqual({
      message: JOIN_SESSION_PAGE_TEXTS.ended,
      retryable: false,
    });
    expect(joinFailureOf(new ApiError('Researchers cannot join.', 403)).retryable).toBe(false);
    expect(joinFailureOf(new ApiError('Wait a minute.', 429))).toEqual({
      message: 'Wait a minute.',
      retryable: true,
    });
  });

  it('says something went wrong on a fault or a lost connection, and offers a retry', () => {
    for (const error of [new ApiError('Internal error', 500), new ApiError('', 0), new TypeError('fetch')]) {
      expect(joinFailureOf(error)).toEqual({
        message: JOIN_SESSION_PAGE_TEXTS.unexpected,
        retryable: true,
      });
    }
  });
});
