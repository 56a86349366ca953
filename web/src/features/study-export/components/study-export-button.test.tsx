import { fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { tokens } from '../../../auth/tokens';
import { fakeApi, ok } from '../../../testing/fake-api';
import { STUDY_EXPORT_LABEL, StudyExportButton } from './study-export-button';

const sessionId = '6f1c2a8e-1d7b-4c1e-9a55-0b9f3f1e2d10';
const groupId = '0b9f3f1e-1d7b-4c1e-9a55-6f1c2a8e2d10';

/** An access token as the server signs it, as far as the client reads one: a payload with `exp`. */
const tokenExpiringIn = (seconds: number) =>
  `header.${btoa(JSON.stringify({ exp: Math.floor(Date.now() / 1000) + seconds }))}.signature`;

const link = () => screen.getByRole('link', { name: STUDY_EXPORT_LABEL });

describe('StudyExportButton', () => {
  let followed: string[];
  beforeEach(() => {
    followed = [];
    // A click made by code (after a renewal) is what the browser would follow.
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      followed.push(this.href);
    });
  });
  afterEach(() => tokens.clear());

  it("is a download link to the session's or the group's export", () => {
    const { unmount } = render(<StudyExportButton target={{ sessionId }} />);
    expect(link().getAttribute('href')).toBe(`/exportStudy?sessionId=${sessionId}`);
    expect(link().hasAttribute('download')).toBe(true);
    unmount();
    render(<StudyExportButton target={{ groupId }} />);
    expect(link().getAttribute('href')).toBe(`/exportStudy?groupId=${groupId}`);
  });

  it('lets the browser follow it at once while the access token is fresh: no blob, no call', () => {
    const api = fakeApi({});
    tokens.setPair({ accessToken: tokenExpiringIn(600), refreshToken: 'refresh-1' });
    render(<StudyExportButton target={{ sessionId }} />);
    // After React's handler: was the browser's navigation left to happen? (jsdom cannot navigate.)
    let followedByBrowser = false;
    const listener = (event: MouseEvent) => {
      followedByBrowser = !event.defaultPrevented;
      event.preventDefault();
    };
    document.addEventListener('click', listener);
    fireEvent.click(link());
    document.removeEventListener('click', listener);
    expect(followedByBrowser).toBe(true);
    expect(api.requests).toEqual([]);
  });

  it('renews an expiring access token first, then follows the link with the fresh cookie', async () => {
    const fresh = tokenExpiringIn(600);
    const api = fakeApi({
      '/getAccessTokenFromRefreshToken': () => ok({ accessToken: fresh, refreshToken: 'refresh-2' }),
    });
    tokens.setPair({ accessToken: tokenExpiringIn(10), refreshToken: 'refresh-1' });
    render(<StudyExportButton target={{ groupId }} />);

    expect(fireEvent.click(link())).toBe(false);
    await vi.waitFor(() => expect(followed).toHaveLength(1));
    expect(api.to('/getAccessTokenFromRefreshToken')).toHaveLength(1);
    expect(tokens.access()).toBe(fresh);
    expect(followed[0]).toMatch(new RegExp(`/exportStudy\\?groupId=${groupId}$`));
  });
});
