import { afterEach, describe, expect, it, vi } from 'vitest';
import { createVideoElementPlayer, videoElementPlayer } from './video-element-player';

/** jsdom has no media pipeline: its <video> properties are set here as a browser would. */
function fakeVideo() {
  const video = document.createElement('video');
  Object.defineProperty(video, 'duration', { value: 30, configurable: true });
  Object.defineProperty(video, 'readyState', {
    value: HTMLMediaElement.HAVE_ENOUGH_DATA,
    configurable: true,
  });
  Object.defineProperty(video, 'videoWidth', { value: 640, configurable: true });
  Object.defineProperty(video, 'videoHeight', { value: 360, configurable: true });
  return video;
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('videoElementPlayer', () => {
  it('reads and drives the element: time, rate (within the allowed range), mute, seeks within the video', () => {
    const video = fakeVideo();
    const player = videoElementPlayer(video);
    player.seek(12.5);
    expect(player.currentTime()).toBe(12.5);
    player.seek(99);
    expect(video.currentTime).toBe(30);
    player.seek(-1);
    expect(video.currentTime).toBe(0);
    player.setPlaybackRate(1.05);
    expect(player.playbackRate()).toBe(1.05);
    player.setPlaybackRate(10);
    expect(video.playbackRate).toBe(4);
    player.setMuted(true);
    expect(player.muted()).toBe(true);
    expect(player.paused()).toBe(true);
  });

  it("passes the element's events on, and stops when destroyed", () => {
    const video = fakeVideo();
    const pause = vi.spyOn(video, 'pause').mockImplementation(() => undefined);
    const player = videoElementPlayer(video);
    const heard: string[] = [];
    const off = player.on('seeked', () => heard.push('seeked'));
    player.on('ratechange', () => heard.push('ratechange'));
    video.dispatchEvent(new Event('seeked'));
    off();
    video.dispatchEvent(new Event('seeked'));
    video.dispatchEvent(new Event('ratechange'));
    player.destroy();
    video.dispatchEvent(new Event('ratechange'));
    expect(heard).toEqual(['seeked', 'ratechange']);
    expect(pause).toHaveBeenCalled();
  });

  it("samples the frame's colour through a canvas, and answers null when the canvas is tainted", () => {
    const video = fakeVideo();
    const drawImage = vi.fn();
    let tainted = false;
    const context = {
      clearRect: vi.fn(),
      drawImage,
      getImageData: () => {
        if (tainted) throw new DOMException('The canvas has been tainted', 'SecurityError');
        return { data: new Uint8ClampedArray([233, 30, 99, 255]) };
      },
    };
    vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(
      context as unknown as CanvasRenderingContext2D,
    );
    const player = videoElementPlayer(video);
    expect(player.colorAt(0.5, 0.25)).toBe('rgba(233, 30, 99, 1)');
    // The pixel under the point, in the video's own pixels.
    expect(drawImage).toHaveBeenCalledWith(video, 320, 90, 1, 1, 0, 0, 1, 1);
    expect(player.colorAt(1, 1)).toBe('rgba(233, 30, 99, 1)');
    expect(drawImage).toHaveBeenLastCalledWith(video, 639, 359, 1, 1, 0, 0, 1, 1);
    tainted = true;
    expect(player.colorAt(0.5, 0.5)).toBeNull();
  });

  it('answers null before a frame is there', () => {
    const video = document.createElement('video');
    expect(videoElementPlayer(video).colorAt(0.5, 0.5)).toBeNull();
  });
});

describe('createVideoElementPlayer', () => {
  it('puts a <video> in the container as asked and resolves once its metadata is in', async () => {
    const container = document.createElement('div');
    document.body.append(container);
    const made = createVideoElementPlayer(container, '/assets/s/clip.mp4', {
      controls: true,
      muted: false,
      label: 'Session video',
    });
    const video = container.querySelector('video');
    expect(video).not.toBeNull();
    expect(video?.controls).toBe(true);
    expect(video?.muted).toBe(false);
    expect(video?.getAttribute('aria-label')).toBe('Session video');
    expect(video?.getAttribute('src')).toBe('/assets/s/clip.mp4');
    video?.dispatchEvent(new Event('loadedmetadata'));
    const player = await made;
    vi.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(() => undefined);
    vi.spyOn(HTMLMediaElement.prototype, 'load').mockImplementation(() => undefined);
    player.destroy();
    expect(container.querySelector('video')).toBeNull();
  });

  it('rejects with the reason when the video cannot load, and leaves nothing behind', async () => {
    const container = document.createElement('div');
    vi.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(() => undefined);
    vi.spyOn(HTMLMediaElement.prototype, 'load').mockImplementation(() => undefined);
    const made = createVideoElementPlayer(container, '/assets/s/missing.mp4', { muted: true });
    const video = container.querySelector('video');
    expect(video?.muted).toBe(true);
    Object.defineProperty(video, 'error', {
      value: { code: 4 }, // MEDIA_ERR_SRC_NOT_SUPPORTED
    });
    video?.dispatchEvent(new Event('error'));
    await expect(made).rejects.toThrow(/could not be loaded/);
    expect(container.querySelector('video')).toBeNull();
  });
});
