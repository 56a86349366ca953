import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDashPlayer, dashErrorOf } from './dash-player';
import { PLAYBACK_ERROR_TEXTS } from '../../i18n/en/playback';

const URL_ = 'https://cdn.example.org/a/manifest.mpd?token=secret';

let container: HTMLElement;
beforeEach(() => {
  container = document.body.appendChild(document.createElement('div'));
});
afterEach(() => container.remove());

describe('dashErrorOf', () => {
  it("words dash.js's errors that end playback, and lets it live with the others", () => {
    expect(dashErrorOf(25, URL_)?.message).toBe(
      'The DASH manifest could not be loaded from cdn.example.org.',
    );
    expect(dashErrorOf(10, URL_)?.message).toBe(
      'The address at cdn.example.org holds no DASH manifest this player can read.',
    );
    expect(dashErrorOf(35, URL_)?.message).toBe(PLAYBACK_ERROR_TEXTS.dashCodecs);
    expect(dashErrorOf(27, URL_)?.code).toBe('network');
    // A caption that does not parse (33) does not stop the video.
    expect(dashErrorOf(33, URL_)).toBeNull();
    expect(dashErrorOf(undefined, URL_)).toBeNull();
  });
});

describe('createDashPlayer', () => {
  it('says the browser cannot play DASH without Media Source Extensions, leaving the area empty', async () => {
    await expect(createDashPlayer(container, URL_)).rejects.toMatchObject({
      code: 'unsupported',
      message: PLAYBACK_ERROR_TEXTS.dashUnsupported,
    });
    expect(container.childElementCount).toBe(0);
  });
});
