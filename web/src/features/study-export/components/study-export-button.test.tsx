import { fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { tokens } from '../../../signed-in/tokens';
import { fakeApi, ok } from '../../../testing/fake-api';
import { StudyExportButton } from './study-export-button';
import { COMMON_TEXTS } from '../../../i18n/en/common';

const sessionId = '6f1c2a8e-1d7b-4c1e-9a55-0b9f3f1e2d10';
const groupId = '0b9f3f1e-1d7b-4c1e-9a55-6f1c2a8e2d10';

/** Auth's readable marker beside its HttpOnly token cookies: when the access token expires. */
const accessExpiringIn = (seconds: number) => {
  document.cookie = `signedIn=${Math.floor(Date.now() / 1000) + seconds}; path=/`;
};

const link = () => screen.getByRole('link', { name: COMMON_TEXTS.exportStudy });

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

  it('leaves identifiers out unless the checkbox is ticked', () => {
    render(<StudyExportButton target={{ groupId }} />);
    const checkbox = screen.getByRole('checkbox', { name: COMMON_TEXTS.includeIdentifiers });
    expect((checkbox as HTMLInputElement).checked).toBe(false);
    expect(link().getAttribute('href')).toBe(`/exportStudy?groupId=${groupId}`);
    fireEvent.click(checkbox);
    expect(link().getAttribute('href')).toBe(`/exportStudy?groupId=${groupId}&identifiers=true`);
    fireEvent.click(checkbox);
    expect(link().getAttribute('href')).toBe(`/exportStudy?groupId=${groupId}`);
  });

  it('lets the browser follow it at once while the access token is fresh: no blob, no call', () => {
    const api = fakeApi({});
    accessExpiringIn(600);
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
    const api = fakeApi({
      // What auth does in a browser: the new cookies, the marker's expiry moved on.
      '/getAccessTokenFromRefreshToken': () => {
        accessExpiringIn(900);
        return ok({ accessToken: 'fresh', refreshToken: '' });
      },
    });
    accessExpiringIn(10);
    render(<StudyExportButton target={{ groupId }} />);

    expect(fireEvent.click(link())).toBe(false);
    await vi.waitFor(() => expect(followed).toHaveLength(1));
    expect(api.to('/getAccessTokenFromRefreshToken').map((sent) => sent.body)).toEqual([{}]);
    expect(tokens.expiresWithin(600_000)).toBe(false);
    expect(followed[0]).toMatch(new RegExp(`/exportStudy\\?groupId=${groupId}$`));
  });
});
