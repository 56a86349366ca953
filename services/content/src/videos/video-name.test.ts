import { VIDEO_NAME_MAX_CHARS } from '@uis/proto';
import { sanitizeVideoName } from './video-name';

describe('sanitizeVideoName', () => {
  it.each([
    ['clip.mp4', 'clip.mp4'],
    ['Clip.MP4', 'Clip.mp4'],
    ['my video (1).mp4', 'my_video_1.mp4'],
    ['café crème.mp4', 'cafe_creme.mp4'],
    ['../../etc/passwd', 'passwd.mp4'],
    ['C:\\Users\\me\\Desktop\\talk.mp4', 'talk.mp4'],
    ['.hidden.mp4', 'hidden.mp4'],
    ['..', 'video.mp4'],
    ['.mp4', 'video.mp4'],
    ['', 'video.mp4'],
    [undefined, 'video.mp4'],
    ['数据.mp4', 'video.mp4'],
    ['session.mov', 'session.mov.mp4'],
    ['a<script>b.mp4', 'a_script_b.mp4'],
    ['name%2F..%2F.mp4', 'name_2F.._2F.mp4'],
    ['trailing-.mp4', 'trailing.mp4'],
  ])('%j -> %j', (input, expected) => {
    expect(sanitizeVideoName(input)).toBe(expected);
  });

  it('keeps names short enough for the asset path', () => {
    const name = sanitizeVideoName(`${'a'.repeat(500)}.mp4`);
    expect(name).toBe(`${'a'.repeat(100)}.mp4`);
    expect(name.length).toBeLessThanOrEqual(VIDEO_NAME_MAX_CHARS);
  });

  it('only ever answers safe characters ending in .mp4', () => {
    for (const input of ['\u0000x.mp4', 'a\nb.mp4', 'x;rm -rf /', '%00.mp4', 'CON', '   ']) {
      expect(sanitizeVideoName(input)).toMatch(/^[A-Za-z0-9][A-Za-z0-9._-]*\.mp4$/);
    }
  });
});
