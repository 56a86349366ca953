/// <reference types="node" />
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

/**
 * Real streams for the stream specs, made with ffmpeg from the same test pattern (testsrc2, 640x360,
 * 30 fps, H.264, a key frame every 2 s): an HLS playlist of 2 s MPEG-TS segments, a DASH manifest of
 * 2 s fMP4 segments, and a plain MP4 file. A small static server serves them on another origin than
 * the app's, with CORS, as a stream host must for hls.js and dash.js.
 */

export interface StreamServer {
  /** The HLS playlist's URL. */
  hls: string;
  /** The DASH manifest's URL. */
  dash: string;
  /** The MP4 file's URL. */
  mp4: string;
  /** The server's origin (a missing file there answers 404). */
  origin: string;
  close(): Promise<void>;
}

const TYPES: Record<string, string> = {
  '.m3u8': 'application/vnd.apple.mpegurl',
  '.ts': 'video/mp2t',
  '.mpd': 'application/dash+xml',
  '.m4s': 'video/iso.segment',
  '.mp4': 'video/mp4',
};

const ffmpeg = (args: string[]) =>
  promisify(execFile)('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y'],
    ...['-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=30', '-t', '20'],
    ...['-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p'],
    ...['-g', '60', '-keyint_min', '60', '-sc_threshold', '0'],
    ...args,
  ]);

/** The three streams into `dir`: index.m3u8 (and segments), manifest.mpd (and segments), clip.mp4. */
export async function makeStreams(dir: string): Promise<void> {
  await ffmpeg([
    ...['-f', 'hls', '-hls_time', '2', '-hls_playlist_type', 'vod'],
    ...['-hls_segment_filename', path.join(dir, 'segment%03d.ts'), path.join(dir, 'index.m3u8')],
  ]);
  await ffmpeg([
    '-f',
    'dash',
    '-seg_duration',
    '2',
    '-use_template',
    '1',
    '-use_timeline',
    '1',
    path.join(dir, 'manifest.mpd'),
  ]);
  await ffmpeg(['-movflags', '+faststart', path.join(dir, 'clip.mp4')]);
}

/** Serves the files of `dir` (no subfolders) on 127.0.0.1, to any origin. */
export async function serveFiles(dir: string): Promise<{ origin: string; close(): Promise<void> }> {
  const server = http.createServer((request, response) => {
    const name = path.basename(decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname));
    const file = path.join(dir, name);
    response.setHeader('Access-Control-Allow-Origin', '*');
    if (request.method !== 'GET' || !fs.existsSync(file)) {
      response.writeHead(404).end();
      return;
    }
    // Byte ranges, as media hosts answer them: without them a browser cannot seek in an MP4.
    const size = fs.statSync(file).size;
    const type = TYPES[path.extname(name)] ?? 'application/octet-stream';
    const range = /^bytes=(\d*)-(\d*)$/.exec(request.headers.range ?? '');
    response.setHeader('Accept-Ranges', 'bytes');
    if (!range) {
      response.writeHead(200, { 'Content-Type': type, 'Content-Length': size });
      fs.createReadStream(file).pipe(response);
      return;
    }
    const start = range[1] ? Number(range[1]) : Math.max(0, size - Number(range[2]));
    const end = range[1] && range[2] ? Math.min(Number(range[2]), size - 1) : size - 1;
    if (start >= size || start > end) {
      response.writeHead(416, { 'Content-Range': `bytes */${size}` }).end();
      return;
    }
    response.writeHead(206, {
      'Content-Type': type,
      'Content-Length': end - start + 1,
      'Content-Range': `bytes ${start}-${end}/${size}`,
    });
    fs.createReadStream(file, { start, end }).pipe(response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Makes the streams in a folder of their own and serves them; `close` stops the server and removes the folder. */
export async function startStreamServer(): Promise<StreamServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uis-e2e-streams-'));
  await makeStreams(dir);
  const files = await serveFiles(dir);
  return {
    hls: `${files.origin}/index.m3u8`,
    dash: `${files.origin}/manifest.mpd`,
    mp4: `${files.origin}/clip.mp4`,
    origin: files.origin,
    close: async () => {
      await files.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
