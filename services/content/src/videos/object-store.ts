import fs from 'node:fs';
import type { Readable } from 'node:stream';
import { Client } from 'minio';

export interface ObjectStoreOptions {
  endpoint: string;
  accessKey: string;
  secretKey: string;
  bucket: string;
  region: string;
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
    const etag = String(response.headers.etag ?? '').replace(/^"|"$/g, '');
    if (!etag) throw new Error(`the object store answered the PUT of ${key} without an ETag`);
    return { etag };
  }

  /** `length` bytes from `offset`; null when the object is gone. */
  async read(key: string, offset: number, length: number): Promise<Readable | null> {
    try {
      return await this.client.getPartialObject(this.bucket, key, offset, length);
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
