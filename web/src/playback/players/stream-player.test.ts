import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NOT_A_STREAM_MESSAGE } from './stream-source';
import { createStreamPlayer } from './stream-player';
import { YT_STATE, type YouTubeNamespace, type YouTubePlayerOptions } from './youtube-iframe-api';
import { YOUTUBE_ERROR_TEXTS } from '../../i18n/en/playback';

let container: HTMLElement;

beforeEach(() => {
  container = document.body.appendChild(document.createElement('div'));
  // jsdom has no media: the element's load and pause do nothing here.
  vi.spyOn(HTMLMediaElement.prototype, 'load').mockImplementation(() => {});
  vi.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(() => {});
});
afterEach(() => {
  container.remove();
  delete window.YT;
});

const videoIn = () => container.querySelector('video');

describe('createStreamPlayer: what cannot be played', () => {
  it('rejects a source that is no stream with words for the video area, leaving the area empty', async () => {
    await expect(createStreamPlayer(container, 'https://example.org/about')).rejects.toThrow(
      NOT_A_STREAM_MESSAGE,
    );
    expect(container.childElementCount).toBe(0);
  });
});

describe('createStreamPlayer: direct media', () => {
  it('plays a media URL in a <video>, with controls for the researcher, once its metadata is in', async () => {
    const made = createStreamPlayer(container, 'https://cdn.example.org/clip.webm');
    const video = videoIn();
    expect(video?.src).toBe('https://cdn.example.org/clip.webm');
    expect(video?.controls).toBe(true);
    video?.dispatchEvent(new Event('loadedmetadata'));
    const player = await made;
    expect(player.paused()).toBe(true);
    expect(player.colorAt(0.5, 0.5)).toBeNull(); // no frame yet
    player.destroy();
    expect(container.childElementCount).toBe(0);
  });

  it("builds a participant's muted <video> without controls", async () => {
    const made = createStreamPlayer(container, 'https://cdn.example.org/clip.mp4', {
      controls: false,
      muted: true,
      label: 'Stream',
    });
    const video = videoIn();
    expect(video?.controls).toBe(false);
    expect(video?.muted).toBe(true);
    expect(video?.getAttribute('aria-label')).toBe('Stream');
    video?.dispatchEvent(new Event('loadedmetadata'));
    (await made).destroy();
  });

  it('rejects with the host named when the file cannot be played, and removes the element', async () => {
    const made = createStreamPlayer(container, 'https://cdn.example.org/missing.mp4?token=secret');
    const video = videoIn() as HTMLVideoElement;
    Object.defineProperty(video, 'error', { value: { code: 4 } });
    video.dispatchEvent(new Event('error'));
    const error = (await made.then(
      () => null,
      (reason: unknown) => reason,
    )) as Error;
    expect(error.message).toMatch(/^The stream at cdn\.example\.org cannot be played/);
    expect(error.message).not.toContain('secret');
    expect(container.childElementCount).toBe(0);
  });

  it('stops loading when the page no longer wants it', async () => {
    const abort = new AbortController();
    const made = createStreamPlayer(container, 'https://cdn.example.org/clip.mp4', { signal: abort.signal });
    abort.abort();
    await expect(made).rejects.toMatchObject({ name: 'AbortError' });
    expect(container.childElementCount).toBe(0);
  });
});

/** YouTube's API as the page sees it once loaded: a Player that replaces its element with an iframe. */
function fakeYouTubeApi() {
  const made: Array<{ options: YouTubePlayerOptions; destroy: ReturnType<typeof vi.fn> }> = [];
  class Player {
    readonly destroy = vi.fn();
    constructor(element: HTMLElement, options: YouTubePlayerOptions) {
      const iframe = document.createElement('iframe');
      iframe.src = `https://www.youtube.com/embed/${options.videoId}?enablejsapi=1`;
      element.replaceWith(iframe);
      made.push({ options, destroy: this.destroy });
    }
  }
  window.YT = { Player } as unknown as YouTubeNamespace;
  const ready = { state: YT_STATE.CUED, time: 0 };
  const target = {
    playVideo: vi.fn(),
    pauseVideo: vi.fn(),
    seekTo: vi.fn(),
    setPlaybackRate: vi.fn(),
    getPlaybackRate: () => 1,
    getCurrentTime: () => ready.time,
    getPlayerState: () => ready.state,
    mute: vi.fn(),
    unMute: vi.fn(),
    isMuted: () => false,
    destroy: vi.fn(),
    getIframe: () => container.querySelector('iframe') as HTMLIFrameElement,
  };
  const events = () => made[0]?.options.events ?? {};
  return { made, target, events };
}

describe('createStreamPlayer: a v= URL', () => {
  it("drives YouTube's player for the video, resolving once it is ready", async () => {
    const { made, target, events } = fakeYouTubeApi();
    const creating = createStreamPlayer(container, 'https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=5');
    await vi.waitFor(() => expect(made).toHaveLength(1));
    const { options } = made[0]!;
    expect(options.videoId).toBe('dQw4w9WgXcQ');
    expect(options.playerVars).toMatchObject({ controls: 1, playsinline: 1, origin: window.location.origin });

    events().onReady?.({ target, data: undefined });
    const player = await creating;
    const heard = vi.fn();
    player.on('play', heard);
    events().onStateChange?.({ target, data: YT_STATE.PLAYING });
    expect(heard).toHaveBeenCalledTimes(1);
    expect(player.colorAt(0.5, 0.5)).toBeNull();
    player.destroy();
    expect(target.destroy).toHaveBeenCalled();
    expect(container.childElementCount).toBe(0);
  });

  it('gives a participant a muted player without controls whose clicks reach the video area', async () => {
    const { made, target, events } = fakeYouTubeApi();
    const creating = createStreamPlayer(container, 'https://www.youtube.com/watch?v=dQw4w9WgXcQ', {
      controls: false,
      muted: true,
      label: 'Stream',
    });
    await vi.waitFor(() => expect(made).toHaveLength(1));
    expect(made[0]!.options.playerVars).toMatchObject({ controls: 0, disablekb: 1, mute: 1 });
    events().onReady?.({ target, data: undefined });
    (await creating).destroy();
  });

  it("rejects with YouTube's refusal in words when it comes before the player is ready", async () => {
    const { made, target, events } = fakeYouTubeApi();
    const creating = createStreamPlayer(container, 'https://www.youtube.com/watch?v=dQw4w9WgXcQ');
    await vi.waitFor(() => expect(made).toHaveLength(1));
    events().onError?.({ target, data: 150 });
    await expect(creating).rejects.toMatchObject({
      code: 'youtube-video',
      message: YOUTUBE_ERROR_TEXTS[101],
    });
    expect(made[0]!.destroy).toHaveBeenCalled();
    expect(container.childElementCount).toBe(0);
  });

  it('shows a refusal that comes later over the player', async () => {
    const { made, target, events } = fakeYouTubeApi();
    const creating = createStreamPlayer(container, 'https://www.youtube.com/watch?v=dQw4w9WgXcQ');
    await vi.waitFor(() => expect(made).toHaveLength(1));
    events().onReady?.({ target, data: undefined });
    const player = await creating;
    events().onError?.({ target, data: 100 });
    expect(container.querySelector('[role="alert"]')?.textContent).toBe(YOUTUBE_ERROR_TEXTS[100]);
    player.destroy();
  });
});
