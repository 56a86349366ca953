import { describe, expect, it } from 'vitest';
import { StreamPlayerError } from './stream-errors';
import { NOT_A_STREAM_MESSAGE, streamSourceOf, youTubeVideoId } from './stream-source';

const notAStream = (source: string) => {
  try {
    streamSourceOf(source);
  } catch (error) {
    expect(error).toBeInstanceOf(StreamPlayerError);
    return error as StreamPlayerError;
  }
  throw new Error(`${source} was taken for a stream`);
};

describe('youTubeVideoId', () => {
  it('reads the v= parameter of a video page URL', () => {
    expect(youTubeVideoId('https://www.youtube.com/watch?v=dQw4w9WgXcQ')).toBe('dQw4w9WgXcQ');
    expect(youTubeVideoId('https://youtube.com/watch?feature=share&v=dQw4w9WgXcQ&t=42s')).toBe('dQw4w9WgXcQ');
    expect(youTubeVideoId('https://m.youtube.com/watch?v=a-b_c1234Z9')).toBe('a-b_c1234Z9');
    expect(youTubeVideoId('  https://www.youtube.com/watch?v=dQw4w9WgXcQ  ')).toBe('dQw4w9WgXcQ');
  });

  it('answers null when the URL names no id YouTube could load', () => {
    expect(youTubeVideoId('https://www.youtube.com/watch')).toBeNull();
    expect(youTubeVideoId('https://www.youtube.com/watch?v=')).toBeNull();
    expect(youTubeVideoId('https://www.youtube.com/watch?v=short')).toBeNull();
    expect(youTubeVideoId('https://www.youtube.com/watch?v=dQw4w9WgXcQ%22%3E')).toBeNull();
    expect(youTubeVideoId('javascript:alert(1)//?v=dQw4w9WgXcQ')).toBeNull();
    expect(youTubeVideoId('not a url')).toBeNull();
  });
});

describe('streamSourceOf', () => {
  it('plays a v= URL through YouTube', () => {
    expect(streamSourceOf('https://www.youtube.com/watch?v=dQw4w9WgXcQ')).toEqual({
      kind: 'youtube',
      videoId: 'dQw4w9WgXcQ',
    });
  });

  it('tells HLS, DASH and plain media apart by the path, whatever its case', () => {
    expect(streamSourceOf('https://cdn.example.org/live/index.m3u8')).toEqual({
      kind: 'hls',
      url: 'https://cdn.example.org/live/index.m3u8',
    });
    expect(streamSourceOf('https://cdn.example.org/a/MANIFEST.MPD?token=x').kind).toBe('dash');
    for (const extension of ['mp4', 'webm', 'ogg', 'ogv', 'mov']) {
      expect(streamSourceOf(`http://127.0.0.1:8080/clip.${extension}`).kind).toBe('media');
    }
  });

  it('takes a media file with a v= version for the file, not for a YouTube video', () => {
    expect(streamSourceOf('https://cdn.example.org/clip.mp4?v=3')).toEqual({
      kind: 'media',
      url: 'https://cdn.example.org/clip.mp4?v=3',
    });
    expect(streamSourceOf('https://cdn.example.org/index.m3u8?v=dQw4w9WgXcQ').kind).toBe('hls');
  });

  it('says why a source cannot be played, as the studies service would have refused it', () => {
    expect(notAStream('https://example.org/page.html').message).toBe(NOT_A_STREAM_MESSAGE);
    expect(notAStream('ftp://example.org/clip.mp4').code).toBe('not-a-stream');
    expect(notAStream('clip.mp4').message).toBe(NOT_A_STREAM_MESSAGE);
    expect(notAStream('').message).toBe(NOT_A_STREAM_MESSAGE);
    expect(notAStream('https://www.youtube.com/watch?v=nope').message).toMatch(
      /names no video YouTube can play \(v=nope\)/,
    );
  });
});
