import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { StreamPlayerError } from './stream-errors';
import type { YouTubeNamespace } from './youtube-iframe-api';

/** A fresh module per test: the loader keeps its one load in module state. */
const loader = () => import('./youtube-iframe-api');
const apiScripts = () =>
  [...document.querySelectorAll('script')].filter(
    (script) => script.src === 'https://www.youtube.com/iframe_api',
  );
const fakeApi = { Player: vi.fn() } as unknown as YouTubeNamespace;

beforeEach(() => {
  vi.resetModules();
});
afterEach(() => {
  for (const script of apiScripts()) script.remove();
  delete window.YT;
  delete window.onYouTubeIframeAPIReady;
});

describe('loadYouTubeIframeApi', () => {
  it("adds YouTube's script once, at run time, and resolves when the API calls back", async () => {
    const { loadYouTubeIframeApi } = await loader();
    const earlier = vi.fn();
    window.onYouTubeIframeAPIReady = earlier;
    const first = loadYouTubeIframeApi();
    const second = loadYouTubeIframeApi();
    expect(apiScripts()).toHaveLength(1);
    expect(apiScripts()[0]?.async).toBe(true);

    window.YT = fakeApi;
    window.onYouTubeIframeAPIReady?.();
    await expect(first).resolves.toBe(fakeApi);
    await expect(second).resolves.toBe(fakeApi);
    // Another part of a page waiting for the same callback still hears it.
    expect(earlier).toHaveBeenCalledTimes(1);
  });

  it('uses an API already on the page', async () => {
    const { loadYouTubeIframeApi } = await loader();
    window.YT = fakeApi;
    await expect(loadYouTubeIframeApi()).resolves.toBe(fakeApi);
    expect(apiScripts()).toHaveLength(0);
  });

  it('says so when the script does not load, and tries again on the next call', async () => {
    const { loadYouTubeIframeApi } = await loader();
    const failed = loadYouTubeIframeApi();
    apiScripts()[0]?.dispatchEvent(new Event('error'));
    const error = (await failed.catch((reason: unknown) => reason)) as StreamPlayerError;
    expect(error.name).toBe('StreamPlayerError');
    expect(error.code).toBe('youtube-api');
    expect(error.message).toMatch(/^YouTube's player could not be loaded \(the script did not load\)/);
    expect(apiScripts()).toHaveLength(0);

    const again = loadYouTubeIframeApi();
    expect(apiScripts()).toHaveLength(1);
    window.YT = fakeApi;
    window.onYouTubeIframeAPIReady?.();
    await expect(again).resolves.toBe(fakeApi);
  });

  it('gives up when the API never calls back', async () => {
    vi.useFakeTimers();
    const { loadYouTubeIframeApi, YOUTUBE_API_TIMEOUT_MS } = await loader();
    const waiting = loadYouTubeIframeApi();
    vi.advanceTimersByTime(YOUTUBE_API_TIMEOUT_MS);
    await expect(waiting).rejects.toThrow(/could not be loaded \(no answer\)/);
  });
});
