// The one value this test takes from proto's index (zod and all): the source of truth it must match.
// eslint-disable-next-line @typescript-eslint/no-restricted-imports
import { videoAssetPath as protoVideoAssetPath } from '@uis/proto';
import { describe, expect, it } from 'vitest';
import { videoAssetPath } from './video-asset';

describe('videoAssetPath', () => {
  it("is proto's path, from the zod-free constants", () => {
    const sessionId = '6f1c2a8e-1d7b-4c1e-9a55-0b9f3f1e2d10';
    for (const name of ['clip.mp4', 'a b#?.mp4', 'été.mp4']) {
      expect(videoAssetPath(sessionId, name)).toBe(protoVideoAssetPath(sessionId, name));
    }
    expect(videoAssetPath(sessionId, 'clip.mp4')).toBe(`/assets/${sessionId}/clip.mp4`);
  });
});
