import { describe, expect, it } from 'vitest';
import { isMp4FileName } from './video-file';

describe('isMp4FileName', () => {
  it('accepts .mp4 in any case', () => {
    expect(isMp4FileName('clip.mp4')).toBe(true);
    expect(isMp4FileName('My Clip (1).MP4')).toBe(true);
    expect(isMp4FileName('a.b.Mp4')).toBe(true);
  });

  it('refuses every other name', () => {
    for (const name of ['clip.mov', 'clip.mp4.exe', 'clip.m4v', 'mp4', 'clip.mp', 'clip.webm', ''])
      expect(isMp4FileName(name), name).toBe(false);
  });
});
