import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs';
import https from 'node:https';
import { performance } from 'node:perf_hooks';
import { inputOf } from '../support/child';

/**
 * P7's uploader, its own process: one multipart POST of a file through the gateway, streamed from
 * disk a chunk at a time (never the whole file in memory), as a browser's form sends it.
 */

export interface UploadInput {
  url: string;
  ca: string;
  token: string;
  sessionId: string;
  file: string;
  name: string;
}

export interface UploadResult {
  status: number;
  seconds: number;
  bytes: number;
  answer: string;
}

const input = inputOf<UploadInput>();

function formParts(boundary: string): { head: Buffer; tail: Buffer } {
  const head =
    `--${boundary}\r\nContent-Disposition: form-data; name="sessionId"\r\n\r\n${input.sessionId}\r\n` +
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${input.name}"\r\nContent-Type: video/mp4\r\n\r\n`;
  return { head: Buffer.from(head), tail: Buffer.from(`\r\n--${boundary}--\r\n`) };
}

async function main(): Promise<void> {
  const boundary = `uis-bench-${randomBytes(8).toString('hex')}`;
  const { head, tail } = formParts(boundary);
  const bytes = fs.statSync(input.file).size;
  const started = performance.now();
  const request = https.request(input.url, {
    method: 'POST',
    ca: input.ca,
    headers: {
      authorization: `Bearer ${input.token}`,
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'content-length': head.length + bytes + tail.length,
    },
  });
  const answered = once(request, 'response') as Promise<[import('node:http').IncomingMessage]>;
  request.write(head);
  for await (const chunk of fs.createReadStream(input.file, { highWaterMark: 1 << 20 })) {
    if (!request.write(chunk)) await once(request, 'drain');
  }
  request.end(tail);
  const [response] = await answered;
  let answer = '';
  for await (const chunk of response) answer += String(chunk);
  const result: UploadResult = {
    status: response.statusCode ?? 0,
    seconds: (performance.now() - started) / 1000,
    bytes,
    answer,
  };
  process.stdout.write(JSON.stringify(result));
}

void main();
