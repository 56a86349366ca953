import { HttpStatus } from '@nestjs/common';
import { AppError, unavailable } from '@uis/kit';
import { ERROR_CODES } from '@uis/proto';

const KIB = 1024;
const MIB = 1024 * KIB;
const GIB = 1024 * MIB;

const oneDecimal = (value: number) => Math.round(value * 10) / 10;

/** 21474836480 -> '20 GB', 1610612736 -> '1.5 GB'; small test limits stay readable ('2 KB', '100 bytes'). */
export const formatLimit = (bytes: number): string =>
  bytes >= GIB
    ? `${oneDecimal(bytes / GIB)} GB`
    : bytes >= MIB
      ? `${oneDecimal(bytes / MIB)} MB`
      : bytes >= KIB
        ? `${oneDecimal(bytes / KIB)} KB`
        : `${bytes} bytes`;

export const videoTooLarge = (maxBytes: number) =>
  new AppError(
    HttpStatus.PAYLOAD_TOO_LARGE,
    ERROR_CODES.PAYLOAD_TOO_LARGE,
    `The video is larger than ${formatLimit(maxBytes)}, the most this server accepts.`,
  );

/**
 * A researcher's videos would pass VIDEO_QUOTA_BYTES. 413, like a video over VIDEO_MAX_BYTES: it is
 * this upload's size that is refused, against what the server accepts from this researcher, and the
 * refusal may come before the body is read (by Content-Length), which is what 413 is for. Not 409:
 * the session is in no conflicting state; not 507: that is a 5xx, the server's fault, and WebDAV's.
 */
export const videoQuotaExceeded = (usedBytes: number, afterBytes: number, quotaBytes: number) =>
  new AppError(
    HttpStatus.PAYLOAD_TOO_LARGE,
    ERROR_CODES.PAYLOAD_TOO_LARGE,
    `Not enough video storage: your videos use ${formatLimit(usedBytes)} of your ${formatLimit(quotaBytes)}, ` +
      `and this one would bring them to ${formatLimit(afterBytes)}. Delete a video you no longer need, or upload a smaller one.`,
  );

export const NOT_MP4_MESSAGE = 'Only MP4 videos can be uploaded: this file is not an MP4.';
export const notMp4 = () =>
  new AppError(HttpStatus.UNSUPPORTED_MEDIA_TYPE, ERROR_CODES.UNSUPPORTED_MEDIA, NOT_MP4_MESSAGE);

/** The object store failed while the video was sent to it: nothing was kept, the same upload may be retried. */
export const videoNotStored = () =>
  unavailable(
    'The video could not be stored: the video storage is not answering. Please try again in a moment.',
  );

/** The object store failed before a video's bytes could be sent. */
export const videoNotReadable = () =>
  unavailable(
    'The video cannot be loaded right now: the video storage is not answering. Please try again in a moment.',
  );

/** The object store failed while a video was being deleted: the row stays, so the same delete may be retried. */
export const videoNotRemoved = () =>
  unavailable(
    'The video could not be deleted: the video storage is not answering. Please try again in a moment.',
  );
