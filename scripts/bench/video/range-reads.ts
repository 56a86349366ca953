import { createHash, createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { performance } from 'node:perf_hooks';
import { ascending, quantile } from '../support/measure';
import { inputOf } from '../support/child';

/**
 * P7's reader, its own process: ranged GETs of one video, through the gateway's /assets path and
 * straight from the object store (an S3 GET signed as the minio client signs it), and on content's
 * own address (to tell nginx's share from content's), one at a time, the sides alternating read by read at the same random offsets. Time to first byte is until
 * the first byte of the body; the whole range is read before the next request.
 */

export interface S3Object {
  endpoint: string;
  bucket: string;
  key: string;
  accessKey: string;
  secretKey: string;
  region: string;
}

export interface RangeInput {
  gateway: { url: string; ca: string; token: string };
  /** The same path on content's own address: where the gateway's share ends and content's begins. */
  contentUrl: string;
  direct: S3Object;
  size: number;
  rangeBytes: number;
  reads: number;
  rounds: number;
}

export interface RangeRound {
  /** p50 time to first byte, ms. */
  gateway: number;
  direct: number;
  /** p50 time to first byte from content's own address (no nginx, no TLS), ms. */
  content: number;
  /** p50 time to the last byte, ms. */
  gatewayAll: number;
  directAll: number;
  failed: number;
}

const input = inputOf<RangeInput>();
const gatewayAgent = new https.Agent({ keepAlive: true, maxSockets: 1, ca: input.gateway.ca });
const directAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const contentAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const EMPTY_SHA256 = createHash('sha256').digest('hex');
const hmac = (key: string | Buffer, text: string) => createHmac('sha256', key).update(text).digest();

/** AWS Signature V4 headers of a GET (header form, the empty payload's hash). */
function signedHeaders(object: S3Object, path: string, host: string): Record<string, string> {
  const amzDate = new Date().toISOString().replace(/[-:]|\.\d{3}/g, '');
  const day = amzDate.slice(0, 8);
  const names = 'host;x-amz-content-sha256;x-amz-date';
  const canonical = [
    'GET',
    path,
    '',
    `host:${host}\nx-amz-content-sha256:${EMPTY_SHA256}\nx-amz-date:${amzDate}\n`,
    names,
    EMPTY_SHA256,
  ].join('\n');
  const scope = `${day}/${object.region}/s3/aws4_request`;
  const toSign = [
    'AWS4-HMAC-SHA256',
    amzDate,
    scope,
    createHash('sha256').update(canonical).digest('hex'),
  ].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${object.secretKey}`, day), object.region), 's3'), 'aws4_request');
  return {
    authorization: `AWS4-HMAC-SHA256 Credential=${object.accessKey}/${scope}, SignedHeaders=${names}, Signature=${hmac(key, toSign).toString('hex')}`,
    'x-amz-content-sha256': EMPTY_SHA256,
    'x-amz-date': amzDate,
  };
}

interface Timing {
  firstByte: number;
  all: number;
}

/** One ranged GET read to its end; null unless it answered 206 with the whole range. */
function timedGet(url: URL, headers: Record<string, string>, agent: http.Agent): Promise<Timing | null> {
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    const started = performance.now();
    let firstByte = NaN;
    let bytes = 0;
    const request = client.get(url, { agent, headers }, (res) => {
      res.on('data', (chunk: Buffer) => {
        if (bytes === 0) firstByte = performance.now() - started;
        bytes += chunk.length;
      });
      res.on('end', () =>
        resolve(
          res.statusCode === 206 && bytes === input.rangeBytes
            ? { firstByte, all: performance.now() - started }
            : null,
        ),
      );
      res.on('error', () => resolve(null));
    });
    request.on('error', () => resolve(null));
  });
}

const range = (offset: number) => `bytes=${offset}-${offset + input.rangeBytes - 1}`;

function throughGateway(offset: number): Promise<Timing | null> {
  const headers = { authorization: `Bearer ${input.gateway.token}`, range: range(offset) };
  return timedGet(new URL(input.gateway.url), headers, gatewayAgent);
}

function fromContent(offset: number): Promise<Timing | null> {
  const headers = { authorization: `Bearer ${input.gateway.token}`, range: range(offset) };
  return timedGet(new URL(input.contentUrl), headers, contentAgent);
}

function fromStore(offset: number): Promise<Timing | null> {
  const object = input.direct;
  const url = new URL(`/${object.bucket}/${object.key}`, object.endpoint);
  return timedGet(
    url,
    { ...signedHeaders(object, url.pathname, url.host), range: range(offset) },
    directAgent,
  );
}

const READERS = { gateway: throughGateway, direct: fromStore, content: fromContent };

const p50 = (values: number[]) => quantile(ascending(values), 0.5);

async function round(index: number): Promise<RangeRound> {
  const sides = { gateway: [] as Timing[], direct: [] as Timing[], content: [] as Timing[] };
  let failed = 0;
  for (let i = 0; i < input.reads; i += 1) {
    const offset = Math.floor(Math.random() * (input.size - input.rangeBytes));
    // Who goes first alternates, so neither always reads what the other just brought into the page cache.
    const order =
      (i + index) % 2 === 0
        ? (['gateway', 'direct', 'content'] as const)
        : (['content', 'direct', 'gateway'] as const);
    for (const side of order) {
      const timing = await READERS[side](offset);
      if (timing) sides[side].push(timing);
      else failed += 1;
    }
  }
  return {
    gateway: p50(sides.gateway.map((t) => t.firstByte)),
    direct: p50(sides.direct.map((t) => t.firstByte)),
    content: p50(sides.content.map((t) => t.firstByte)),
    gatewayAll: p50(sides.gateway.map((t) => t.all)),
    directAll: p50(sides.direct.map((t) => t.all)),
    failed,
  };
}

async function main(): Promise<void> {
  // A warm-up pair: connections opened, code paths compiled.
  await throughGateway(0);
  await fromStore(0);
  const rounds: RangeRound[] = [];
  for (let i = 0; i < input.rounds; i += 1) rounds.push(await round(i));
  process.stdout.write(JSON.stringify(rounds));
  gatewayAgent.destroy();
  directAgent.destroy();
  contentAgent.destroy();
}

void main();
