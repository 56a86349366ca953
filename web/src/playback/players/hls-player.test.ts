import Hls, { type ErrorData } from 'hls.js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createHlsPlayer, hlsErrorOf } from './hls-player';
import { PLAYBACK_ERROR_TEXTS } from '../../i18n/en/playback';

const URL_ = 'https://cdn.example.org/live/index.m3u8?token=secret';
const error = (fields: Partial<ErrorData>) => ({ fatal: true, ...fields }) as ErrorData;

let container: HTMLElement;
beforeEach(() => {
  container = document.body.appendChild(document.createElement('div'));
  vi.spyOn(HTMLMediaElement.prototype, 'load').mockImplementation(() => {});
  vi.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(() => {});
});
afterEach(() => container.remove());

describe('hlsErrorOf', () => {
  it("words hls.js's fatal errors for the video area, naming the host and never the path", () => {
    const notFound = hlsErrorOf(
      error({
        type: Hls.ErrorTypes.NETWORK_ERROR,
        details: Hls.ErrorDetails.MANIFEST_LOAD_ERROR,
        response: { code: 404, text: '', url: URL_ },
      }),
      URL_,
    );
    expect(notFound).toMatchObject({
      code: 'network',
      message: 'The HLS playlist could not be loaded from cdn.example.org (HTTP 404).',
    });
    expect(
      hlsErrorOf(
        error({ type: Hls.ErrorTypes.NETWORK_ERROR, details: Hls.ErrorDetails.MANIFEST_PARSING_ERROR }),
        URL_,
      ).message,
    ).toBe('The address at cdn.example.org holds no valid HLS playlist.');
    expect(
      hlsErrorOf(
        error({
          type: Hls.ErrorTypes.MEDIA_ERROR,
          details: Hls.ErrorDetails.MANIFEST_INCOMPATIBLE_CODECS_ERROR,
        }),
        URL_,
      ).message,
    ).toBe(PLAYBACK_ERROR_TEXTS.hlsCodecs);
    expect(
      hlsErrorOf(
        error({ type: Hls.ErrorTypes.NETWORK_ERROR, details: Hls.ErrorDetails.FRAG_LOAD_ERROR }),
        URL_,
      ).message,
    ).toBe('The HLS stream stopped: its segments could not be loaded from cdn.example.org.');
    expect(
      hlsErrorOf(
        error({ type: Hls.ErrorTypes.MEDIA_ERROR, details: Hls.ErrorDetails.BUFFER_APPEND_ERROR }),
        URL_,
      ).code,
    ).toBe('media');
  });
});

describe('createHlsPlayer without Media Source Extensions (hls.js not supported)', () => {
  it("plays through the browser's own HLS when the <video> says it can", async () => {
    vi.spyOn(HTMLMediaElement.prototype, 'canPlayType').mockImplementation((type) =>
      type === 'application/vnd.apple.mpegurl' ? 'maybe' : '',
    );
    const made = createHlsPlayer(container, URL_);
    const video = container.querySelector('video');
    expect(video?.src).toBe(URL_);
    video?.dispatchEvent(new Event('loadedmetadata'));
    const player = await made;
    player.destroy();
    expect(container.childElementCount).toBe(0);
  });

  it('says the browser cannot play HLS when it has neither', async () => {
    vi.spyOn(HTMLMediaElement.prototype, 'canPlayType').mockReturnValue('');
    await expect(createHlsPlayer(container, URL_)).rejects.toMatchObject({
      code: 'unsupported',
      message: PLAYBACK_ERROR_TEXTS.hlsUnsupported,
    });
    expect(container.childElementCount).toBe(0);
  });
});
