import fs from 'node:fs';
import path from 'node:path';

/**
 * Kit's folder: found by walking up, as this file runs from src (jest) or from dist (built). Where it
 * is absent (an image ships dist alone), importing kit's testing must still work: a read then fails
 * naming the path.
 */
const kitRoot = (): string => {
  for (let dir = __dirname; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'testing-fixtures'))) return dir;
  }
  return path.resolve(__dirname, '../..');
};

/** Files every workspace's tests share, in services/kit/testing-fixtures. */
export const FIXTURES_DIR = path.join(kitRoot(), 'testing-fixtures');

/**
 * A real, playable 2-second MP4 of 4.7 KB (ftyp, moov, mdat), made with
 * `ffmpeg -f lavfi -i testsrc=size=160x120:rate=10 -t 2 -pix_fmt yuv420p -c:v libx264 -preset veryslow -crf 35 -movflags +faststart -map_metadata -1 -fflags +bitexact tiny.mp4`.
 */
export const TINY_MP4 = path.join(FIXTURES_DIR, 'tiny.mp4');
