import { describe, expect, it } from 'vitest';
import { replaySource } from './replay-source';

describe('replaySource', () => {
  it('plays the uploaded video of a video session, once there is one', () => {
    expect(replaySource({ type: 'video', source: '' }, 'pilot.mp4')).toEqual({
      kind: 'video',
      name: 'pilot.mp4',
    });
    expect(replaySource({ type: 'video', source: '' }, null)).toBeNull();
  });

  it("plays a stream session's URL, trimmed, and nothing without one", () => {
    expect(replaySource({ type: 'stream', source: ' https://example.org/live.m3u8 ' }, null)).toEqual({
      kind: 'stream',
      url: 'https://example.org/live.m3u8',
    });
    expect(replaySource({ type: 'stream', source: '  ' }, null)).toBeNull();
  });

  it('has nothing to replay in a chat session', () => {
    expect(replaySource({ type: 'chat', source: 'x' }, 'x.mp4')).toBeNull();
  });
});
