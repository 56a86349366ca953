import os from 'node:os';
import { databaseEnv, serviceEnv } from '@uis/kit';
import { VIDEO_UPLOAD_MAX_BYTES } from '@uis/proto';
import { z } from 'zod';

/** The largest object one S3 PUT may carry; uploads are single PUTs (see ObjectStore.putFile). */
export const S3_SINGLE_PUT_MAX_BYTES = 5 * 1024 * 1024 * 1024;

/** 20 GiB: ten videos at the largest size an upload may have by default. */
export const DEFAULT_VIDEO_QUOTA_BYTES = 20 * 1024 * 1024 * 1024;

const uploadCount = z.coerce
  .number({ error: 'must be a number of uploads' })
  .int('must be a whole number')
  .min(1, 'must be at least 1');

/** S3 bucket names: 3 to 63 lowercase letters, digits, dots and hyphens. */
const BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/** Content's environment (every variable is in docs/configuration.md). */
export const contentEnv = serviceEnv.merge(databaseEnv).extend({
  /** MinIO in deployment, the embedded S3-compatible server in `npm start` and tests. */
  S3_ENDPOINT: z
    .url({ error: 'is required: the object store URL, e.g. http://127.0.0.1:9000' })
    .refine((url) => /^https?:\/\//.test(url), 'must be an http:// or https:// URL'),
  S3_ACCESS_KEY: z.string({ error: 'is required (the object store access key)' }).min(1, 'must not be empty'),
  S3_SECRET_KEY: z.string({ error: 'is required (the object store secret key)' }).min(1, 'must not be empty'),
  S3_BUCKET: z.string().regex(BUCKET_NAME, 'must be an S3 bucket name').default('uis-videos'),
  S3_REGION: z.string().min(1).default('us-east-1'),
  VIDEO_MAX_BYTES: z.coerce
    .number({ error: 'must be a number of bytes' })
    .int('must be a whole number of bytes')
    .positive('must be positive')
    .max(S3_SINGLE_PUT_MAX_BYTES, 'must be at most 5 GiB (one S3 PUT)')
    .default(VIDEO_UPLOAD_MAX_BYTES),
  /** Where an upload is spooled while it is checked, before it goes to the object store. */
  UPLOAD_TMP_DIR: z.string().min(1).default(os.tmpdir()),
  /** The most a researcher's uploaded videos may take in the object store, all sessions together. */
  VIDEO_QUOTA_BYTES: z.coerce
    .number({ error: 'must be a number of bytes' })
    .int('must be a whole number of bytes')
    .positive('must be positive')
    .max(Number.MAX_SAFE_INTEGER, 'is too large')
    .default(DEFAULT_VIDEO_QUOTA_BYTES),
  /** Uploads one researcher may have in progress on one process at once. */
  UPLOADS_PER_USER: uploadCount.default(2),
  /** Uploads one process takes at once: each holds a spooled file and a connection to the store. */
  UPLOADS_MAX: uploadCount.default(8),
});
export type ContentConfig = z.output<typeof contentEnv>;

export const CONTENT_CONFIG = Symbol('CONTENT_CONFIG');
