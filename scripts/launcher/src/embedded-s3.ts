import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import S3rver from 's3rver';
import { closeServer, listenOn } from './ports';

export const DEFAULT_EMBEDDED_S3_PORT = 9569;
export const DEFAULT_S3_BUCKET = 'uis-videos';

export interface EmbeddedS3Options {
  directory: string;
  port: number;
  bucket: string;
  portEnvName?: string;
  /** The key pair it accepts (npm start keeps one in secrets.json); random when not given. */
  accessKey?: string;
  secretKey?: string;
}

/** The variables content reads, the same ones an external S3 or MinIO is configured with. */
export interface S3Env {
  S3_ENDPOINT: string;
  S3_ACCESS_KEY: string;
  S3_SECRET_KEY: string;
  S3_BUCKET: string;
}

export interface EmbeddedS3 {
  env: S3Env;
  stop(): Promise<void>;
}

/** s3rver's account registry (internal, no types): the key pairs it accepts. */
interface S3rverAccount {
  createKeyPair(accessKeyId: string, secretAccessKey: string): void;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { DUMMY_ACCOUNT } = require('s3rver/lib/models/account') as { DUMMY_ACCOUNT: S3rverAccount };

const SIGV4 =
  /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/;
/** Requests older or newer than this are refused (S3's own window), so a captured one cannot be replayed later. */
const MAX_CLOCK_SKEW_MS = 15 * 60_000;

const hmac = (key: string | Buffer, text: string) => createHmac('sha256', key).update(text, 'utf8').digest();
const rfc3986 = (text: string) =>
  encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * Whether a request carries a valid AWS Signature V4 (header form, what the minio client sends) of
 * this key pair. s3rver checks only that the access key exists, never the V4 signature, so without
 * this the key pair would be no secret at all.
 */
export function isSignedBy(
  req: http.IncomingMessage,
  accessKey: string,
  secretKey: string,
  now = Date.now(),
): boolean {
  const match = SIGV4.exec(req.headers.authorization ?? '');
  if (!match) return false;
  const [, key, day = '', region = '', service = '', signedHeaders = '', signature = ''] = match;
  const amzDate = String(req.headers['x-amz-date'] ?? '');
  const payloadHash = req.headers['x-amz-content-sha256'];
  if (key !== accessKey || typeof payloadHash !== 'string' || !amzDate.startsWith(day)) return false;
  const at = Date.parse(
    amzDate.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z'),
  );
  if (!Number.isFinite(at) || Math.abs(now - at) > MAX_CLOCK_SKEW_MS) return false;

  const url = new URL(req.url ?? '/', 'http://s3');
  const query = [...url.searchParams]
    .map(([name, value]) => `${rfc3986(name)}=${rfc3986(value)}`)
    .sort()
    .join('&');
  const headerNames = signedHeaders.split(';');
  if (!headerNames.includes('host')) return false;
  const headers = headerNames
    .map(
      (name) =>
        `${name}:${String(req.headers[name] ?? '')
          .trim()
          .replace(/\s+/g, ' ')}\n`,
    )
    .join('');
  const canonical = [req.method, url.pathname, query, headers, signedHeaders, payloadHash].join('\n');
  const scope = `${day}/${region}/${service}/aws4_request`;
  const toSign = [
    'AWS4-HMAC-SHA256',
    amzDate,
    scope,
    createHash('sha256').update(canonical).digest('hex'),
  ].join('\n');
  const signingKey = hmac(hmac(hmac(hmac(`AWS4${secretKey}`, day), region), service), 'aws4_request');
  const expected = hmac(signingKey, toSign);
  const given = Buffer.from(signature, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const refuse = (res: http.ServerResponse) =>
  res
    .writeHead(403, { 'content-type': 'application/xml' })
    .end('<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code></Error>');

/**
 * An S3-compatible server on loopback with its objects under `directory`, so uploads go through the
 * same minio client code as in production. It does not do multipart uploads: content's uploads must
 * stay single PUTs (the minio client does that below its part size).
 *
 * s3rver accepts anonymous requests, a well-known key pair ('S3RVER') and any V4 signature; here
 * every request must carry a valid signature of this server's own key pair, so another local user
 * or a page in the browser cannot read or replace the videos on 127.0.0.1.
 */
export async function startEmbeddedS3(options: EmbeddedS3Options): Promise<EmbeddedS3> {
  fs.mkdirSync(options.directory, { recursive: true, mode: 0o700 });
  const accessKey = options.accessKey ?? `uis${randomBytes(8).toString('hex')}`;
  const secretKey = options.secretKey ?? randomBytes(32).toString('hex');
  DUMMY_ACCOUNT.createKeyPair(accessKey, secretKey);
  const s3rver = new S3rver({
    directory: options.directory,
    silent: true,
    configureBuckets: [{ name: options.bucket, configs: [] }],
  });
  await s3rver.configureBuckets();
  const handle = s3rver.callback();
  // Our own server rather than s3rver.run(): run() never settles when the port is taken.
  const server = http.createServer((req, res) => {
    if (!isSignedBy(req, accessKey, secretKey)) return refuse(res);
    handle(req, res);
  });
  await listenOn(server, {
    port: options.port,
    host: '127.0.0.1',
    envName: options.portEnvName ?? 'EMBEDDED_S3_PORT',
    usualHolder: 'another S3 server?',
  });
  return {
    env: {
      S3_ENDPOINT: `http://127.0.0.1:${options.port}`,
      S3_ACCESS_KEY: accessKey,
      S3_SECRET_KEY: secretKey,
      S3_BUCKET: options.bucket,
    },
    stop: () => closeServer(server),
  };
}
