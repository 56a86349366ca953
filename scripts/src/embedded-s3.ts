import fs from 'node:fs';
import http from 'node:http';
import S3rver from 's3rver';
import { closeServer, listenOn } from './ports';

export const DEFAULT_EMBEDDED_S3_PORT = 9569;
export const DEFAULT_S3_BUCKET = 'uis-videos';
/** s3rver accepts this one key pair only. */
const S3RVER_KEY = 'S3RVER';

export interface EmbeddedS3Options {
  directory: string;
  port: number;
  bucket: string;
  portEnvName?: string;
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

/**
 * An S3-compatible server on loopback with its objects under `directory`, so uploads go through the
 * same minio client code as in production. It does not do multipart uploads: content's uploads must
 * stay single PUTs (the minio client does that below its part size).
 */
export async function startEmbeddedS3(options: EmbeddedS3Options): Promise<EmbeddedS3> {
  fs.mkdirSync(options.directory, { recursive: true });
  const s3rver = new S3rver({
    directory: options.directory,
    silent: true,
    configureBuckets: [{ name: options.bucket }],
  });
  await s3rver.configureBuckets();
  // Our own server rather than s3rver.run(): run() never settles when the port is taken.
  const server = http.createServer(s3rver.callback());
  await listenOn(server, {
    port: options.port,
    host: '127.0.0.1',
    envName: options.portEnvName ?? 'EMBEDDED_S3_PORT',
    usualHolder: 'another S3 server?',
  });
  return {
    env: {
      S3_ENDPOINT: `http://127.0.0.1:${options.port}`,
      S3_ACCESS_KEY: S3RVER_KEY,
      S3_SECRET_KEY: S3RVER_KEY,
      S3_BUCKET: options.bucket,
    },
    stop: () => closeServer(server),
  };
}
