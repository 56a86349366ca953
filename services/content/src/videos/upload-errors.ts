import { HttpStatus } from '@nestjs/common';
import { AppError } from '@uis/kit';
import { ERROR_CODES } from '@uis/proto';

const KIB = 1024;
const MIB = 1024 * KIB;

/** 2147483648 -> '2048 MB'; small test limits stay readable ('2 KB', '100 bytes'). */
export const formatLimit = (bytes: number): string =>
  bytes >= MIB
    ? `${Math.round((bytes / MIB) * 10) / 10} MB`
    : bytes >= KIB
      ? `${Math.round((bytes / KIB) * 10) / 10} KB`
      : `${bytes} bytes`;

export const videoTooLarge = (maxBytes: number) =>
  new AppError(
    HttpStatus.PAYLOAD_TOO_LARGE,
    ERROR_CODES.PAYLOAD_TOO_LARGE,
    `The video is larger than ${formatLimit(maxBytes)}, the most this server accepts.`,
  );

export const NOT_MP4_MESSAGE = 'Only MP4 videos can be uploaded: this file is not an MP4.';
export const notMp4 = () =>
  new AppError(HttpStatus.UNSUPPORTED_MEDIA_TYPE, ERROR_CODES.UNSUPPORTED_MEDIA, NOT_MP4_MESSAGE);
