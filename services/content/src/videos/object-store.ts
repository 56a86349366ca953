import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { Readable } from 'node:stream';
import { Client, type ClientOptions } from 'minio';

/**
 * How long a request to the store may go without a byte moving either way (or without connecting)
 * before it is abandoned. An inactivity limit, not a total one: a 2 GiB upload over a slow link takes
 * as long as it takes, but a working store never falls silent for this long while it receives or
 * sends (S3 itself ends an upload whose client sends nothing for about 20 s). Without it a store that stops
 * answering mid-request, with its connection left open, would hold an upload or a video reader (and
 * its upload slot) forever.
 */
export const STORE_IDLE_TIMEOUT_MS = 30_000;

export interface ObjectStoreOptions {
  endpoint: string;
  accessKey: string;
  secretKey: string;
  bucket: string;
  region: string;
  /** Default STORE_IDLE_TIMEOUT_MS; tests of a frozen store shorten it. */
  idleTimeoutMs?: number;
}

/** A file on disk ready to be stored, with the digests computed while it was written. */
export interface SpooledFile {
  path: string;
  size: number;
  /** Hex SHA-256 of the content: signs the PUT over plain http, so the store checks what it got. */
  sha256: string;
  /** Base64 MD5 of the content: Content-MD5, checked by the store when the payload is unsigned (https). */
  md5: string;
}

type Transport = NonNullable<ClientOptions['transport']>;

/**
 * http(s).request with the idle limit. Node only reports an idle socket (the 'timeout' event); ending
 * the request is the caller's job, and the minio client does not do it. Destroying the request fails
 * whatever waits on it: the PUT's promise, or the response stream a video is being piped from.
 */
const idleLimitedTransport = (base: typeof http | typeof https, idleMs: number): Transport => ({
  request: ((options: http.RequestOptions, callback?: (res: http.IncomingMessage) => void) => {
    // `timeout` (rather than req.setTimeout) also covers connecting to a host that never answers.
    const req = base.request({ ...options, timeout: idleMs }, callback);
    req.on('timeout', () =>
      req.destroy(new Error(`the object store neither sent nor took a byte for ${idleMs / 1000} s`)),
    );
    return req;
  }) as Transport['request'],
});

/** Leftovers remembered at most; past it they are logged by the caller and left (space, not correctness). */
const MAX_LEFTOVERS = 10_000;

const isMissing = (error: unknown) => {
  const code = (error as { code?: string }).code;
  return code === 'NoSuchKey' || code === 'NotFound';
};

/**
 * The bucket of videos, reached only through the minio client: MinIO in deployment, the embedded
 * S3-compatible server (s3rver) in `npm start` and tests.
 */
export class ObjectStore {
  readonly bucket: string;
  private readonly client: Client;
  private readonly useSSL: boolean;
  private readonly region: string;
  private bucketReady: Promise<void> | null = null;
  /** Objects to remove that the store was not answering for (see `discard`). */
  private readonly leftovers = new Set<string>();

  constructor(options: ObjectStoreOptions) {
    const url = new URL(options.endpoint);
    this.useSSL = url.protocol === 'https:';
    this.bucket = options.bucket;
    this.region = options.region;
    this.client = new Client({
      endPoint: url.hostname.replace(/^\[(.*)\]$/, '$1'),
      port: url.port ? Number(url.port) : undefined,
      useSSL: this.useSSL,
      accessKey: options.accessKey,
      secretKey: options.secretKey,
      region: options.region,
      // MinIO and s3rver address buckets by path, not by subdomain.
      pathStyle: true,
      // A PUT's body is a one-shot file stream: a retry would resend an empty stream.
      retryOptions: { disableRetry: true },
      transport: idleLimitedTransport(
        this.useSSL ? https : http,
        options.idleTimeoutMs ?? STORE_IDLE_TIMEOUT_MS,
      ),
    });
  }

  /** Creates the bucket if it is missing; remembered once it worked, retried after a failure. */
  ensureBucket(): Promise<void> {
    this.bucketReady ??= (async () => {
      if (!(await this.client.bucketExists(this.bucket))) {
        await this.client.makeBucket(this.bucket, this.region).catch(async (error: unknown) => {
          // Another replica may have created it in between.
          if (!(await this.client.bucketExists(this.bucket))) throw error;
        });
      }
    })().catch((error: unknown) => {
      this.bucketReady = null;
      throw error;
    });
    return this.bucketReady;
  }

  /** Readiness: the bucket answers. */
  async probe(): Promise<void> {
    await this.ensureBucket();
    if (!(await this.client.bucketExists(this.bucket))) throw new Error(`bucket ${this.bucket} is missing`);
    this.answered();
  }

  /**
   * Removes an object nothing may point at: what a PUT that failed midway left. S3 and MinIO keep no
   * part of a failed PUT, but a store without atomic PUTs (s3rver, in `npm start`) keeps what
   * arrived. A store that failed the PUT is usually not answering either, so a key it cannot remove
   * now is remembered and removed once it answers again (its next successful request, or /ready).
   * In memory only: a restart forgets it, which costs space, not correctness.
   */
  async discard(key: string): Promise<void> {
    try {
      await this.remove(key);
      this.leftovers.delete(key);
    } catch (error) {
      if (this.leftovers.size >= MAX_LEFTOVERS) throw error;
      this.leftovers.add(key);
    }
  }

  /** The store answered: time to remove what it could not remove before. */
  private answered(): void {
    for (const key of [...this.leftovers]) {
      this.leftovers.delete(key);
      void this.discard(key).catch(() => undefined);
    }
  }

  /**
   * Stores a spooled file with one streamed PUT. Not `putObject`: below its part size it reads the
   * whole stream into memory (to hash it), and above it uses multipart uploads, which s3rver lacks.
   * The digests were computed while the upload was written to disk, so the file is read once, in
   * chunks, straight into the request; a 2 GiB video never sits in memory.
   */
  async putFile(key: string, file: SpooledFile, contentType: string): Promise<{ etag: string }> {
    await this.ensureBucket();
    const headers: Record<string, string | number> = {
      'Content-Length': file.size,
      'Content-Type': contentType,
      'Content-MD5': file.md5,
    };
    // The client signs the payload hash over http and sends UNSIGNED-PAYLOAD over https.
    const sha256 = this.useSSL ? '' : file.sha256;
    const response = await this.client.makeRequestStreamAsync(
      { method: 'PUT', bucketName: this.bucket, objectName: key, headers },
      fs.createReadStream(file.path),
      sha256,
      [200],
      this.region,
    );
    response.resume();
    this.answered();
    const etag = String(response.headers.etag ?? '').replace(/^"|"$/g, '');
    if (!etag) throw new Error(`the object store answered the PUT of ${key} without an ETag`);
    return { etag };
  }

  /** `length` bytes from `offset`; null when the object is gone. */
  async read(key: string, offset: number, length: number): Promise<Readable | null> {
    try {
      const body = await this.client.getPartialObject(this.bucket, key, offset, length);
      this.answered();
      return body;
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  /** Removes an object; removing one that is already gone succeeds. */
  async remove(key: string): Promise<void> {
    try {
      await this.client.removeObject(this.bucket, key);
    } catch (error) {
      if (!isMissing(error)) throw error;
    }
  }

  /** Whether an object exists (tests and diagnostics). */
  async exists(key: string): Promise<boolean> {
    try {
      await this.client.statObject(this.bucket, key);
      return true;
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  }
}
