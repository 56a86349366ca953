import {
  CHAT_SOURCE_MESSAGE,
  STREAM_SOURCE_MESSAGE,
  VIDEO_SOURCE_MESSAGE,
  isStreamSource,
  sourceProblem,
} from './stream-source';

describe('isStreamSource', () => {
  it.each([
    'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
    'http://www.youtube.com/watch?feature=share&v=abc',
    'https://video.example.org/watch?v=42&t=10s',
    'https://cdn.example.org/clips/intro.mp4',
    'https://cdn.example.org/clips/INTRO.MP4',
    'https://cdn.example.org/a.webm',
    'https://cdn.example.org/a.ogg',
    'https://cdn.example.org/a.ogv',
    'https://cdn.example.org/live/index.m3u8?token=x',
    'https://cdn.example.org/dash/manifest.mpd',
    'https://cdn.example.org/a.mov#t=5',
  ])('accepts %s', (source) => {
    expect(isStreamSource(source)).toBe(true);
  });

  it.each([
    'not a url',
    'www.youtube.com/watch?v=abc',
    'ftp://files.example.org/a.mp4',
    'javascript:alert(1)//a.mp4',
    'file:///home/me/a.mp4',
    'https://www.youtube.com/watch',
    'https://www.youtube.com/watch?v=',
    'https://www.youtube.com/watch?v=%20',
    'https://youtu.be/dQw4w9WgXcQ',
    'https://cdn.example.org/a.mp4.html',
    'https://cdn.example.org/page?file=a.mp4',
    'https://cdn.example.org/a.avi',
  ])('refuses %s', (source) => {
    expect(isStreamSource(source)).toBe(false);
  });

  it('names both kinds and every extension in its message', () => {
    expect(STREAM_SOURCE_MESSAGE).toBe(
      'a stream needs a video page URL with a v= parameter (e.g. https://www.youtube.com/watch?v=...) ' +
        'or a direct media URL (.mp4, .webm, .ogg, .ogv, .m3u8, .mpd, .mov)',
    );
  });
});

describe('sourceProblem', () => {
  it('takes stream URLs for a stream only', () => {
    expect(sourceProblem('stream', 'https://www.youtube.com/watch?v=abc')).toBeNull();
    expect(sourceProblem('stream', 'javascript:alert(1)//a.mp4')).toBe(STREAM_SOURCE_MESSAGE);
  });

  it("takes a file-name label for a video, never a URL or a path (the probe's javascript: included)", () => {
    expect(sourceProblem('video', 'Lecture 3 (final).mp4')).toBeNull();
    for (const source of ['javascript:alert(1)', 'https://evil.example/a.mp4', '../etc/passwd', 'a\\b.mp4']) {
      expect(sourceProblem('video', source)).toBe(VIDEO_SOURCE_MESSAGE);
    }
  });

  it('takes nothing for a chat', () => {
    expect(sourceProblem('chat', 'anything')).toBe(CHAT_SOURCE_MESSAGE);
  });
});
