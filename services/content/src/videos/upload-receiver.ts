import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { IncomingMessage } from 'node:http';
import busboy from 'busboy';
import { badRequest } from '@uis/kit';
import type { SpooledFile } from './object-store';
import { MP4_SIGNATURE_BYTES, isMp4Start } from './mp4-signature';
import { notMp4, videoTooLarge } from './upload-errors';

/** Room for the form's text fields, part headers and boundaries on top of the file itself. */
export const FORM_OVERHEAD_BYTES = 64 * 1024;

export interface ReceiveOptions {
  /** The multipart field the file must come in (proto's `multipartFile`). */
  fileField: string;
  maxBytes: number;
  tmpDir: string;
  /**
   * Called when the file part begins, with the text fields read so far; the file is not read until
   * it settles, and a rejection refuses the upload. Lets the caller check the session before it
   * spends a byte of disk when sessionId comes first.
   */
  beforeFile(fields: Readonly<Record<string, string>>): Promise<void>;
}

export interface ReceivedFile extends SpooledFile {
  /** The file name the browser sent (last path segment), not yet sanitised. */
  originalName: string;
}

export interface ReceivedUpload {
  fields: Record<string, string>;
  file: ReceivedFile | null;
}

const removeQuietly = (file: string) => fs.promises.rm(file, { force: true }).catch(() => undefined);

/**
 * Reads a multipart upload as it streams in: text fields into memory (small, limited), the one file
 * to a temp file on disk while counting its bytes, hashing it and checking its first bytes are an MP4.
 * Refuses as soon as it knows: a Content-Length past the limit before reading anything, a file past
 * the limit at the byte that passes it, a non-MP4 at its 12th byte. The temp file is removed on every
 * failure; on success the caller owns it (and removes it). Either field order works.
 */
export function receiveUpload(req: IncomingMessage, options: ReceiveOptions): Promise<ReceivedUpload> {
  const { fileField, maxBytes, tmpDir } = options;
  return new Promise<ReceivedUpload>((resolve, reject) => {
    const contentType = req.headers['content-type'] ?? '';
    if (!/^multipart\/form-data\s*;/i.test(contentType)) {
      reject(
        badRequest(
          `Send the video as multipart/form-data, with the file in "${fileField}" and sessionId as a text field.`,
        ),
      );
      return;
    }
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > maxBytes + FORM_OVERHEAD_BYTES) {
      reject(videoTooLarge(maxBytes));
      return;
    }

    let form: busboy.Busboy;
    try {
      form = busboy({
        headers: req.headers,
        defParamCharset: 'utf8',
        // One byte past the limit reaches our counter, which refuses it; busboy then drops the rest.
        limits: { files: 1, fields: 10, fieldSize: 4096, parts: 20, fileSize: maxBytes + 1 },
      });
    } catch (error) {
      reject(badRequest(`The upload form could not be read: ${(error as Error).message}.`));
      return;
    }

    const fields: Record<string, string> = {};
    let file: ReceivedFile | null = null;
    let tempPath: string | null = null;
    let writing: Promise<void> = Promise.resolve();
    let settled = false;

    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      req.unpipe(form);
      form.destroy();
      // Read and drop what the client still sends, so it can read our answer on the same connection.
      req.resume();
      const spooled = tempPath;
      // Answer only once the spooled part is gone, so no path leaves a file behind.
      void writing
        .catch(() => undefined)
        .then(() => (spooled ? removeQuietly(spooled) : undefined))
        .then(() => reject(error instanceof Error ? error : new Error(String(error))));
    };

    // After a failure busboy may still complain about the form it was cut off from; that is expected.
    form.on('error', (error: Error) =>
      fail(badRequest(`The upload form could not be read: ${error.message}.`)),
    );
    form.on('filesLimit', () => fail(badRequest(`Send one file only, in "${fileField}".`)));
    form.on('fieldsLimit', () => fail(badRequest('The upload form has too many fields.')));
    form.on('partsLimit', () => fail(badRequest('The upload form has too many parts.')));

    form.on('field', (name, value, info) => {
      if (info.valueTruncated) return fail(badRequest(`${name}: must be at most 4096 characters`));
      fields[name] = value;
    });

    form.on('file', (name, stream, info) => {
      // Until it is piped, a failure elsewhere may destroy it with an error nobody else listens for.
      stream.on('error', () => undefined);
      if (name !== fileField) {
        stream.resume();
        return fail(badRequest(`Unexpected file in "${name}": send the video in "${fileField}".`));
      }
      const spooled = path.join(tmpDir, `uis-upload-${randomUUID()}.part`);
      tempPath = spooled;
      writing = (async () => {
        await options.beforeFile({ ...fields });
        if (settled) return;
        const sha256 = createHash('sha256');
        const md5 = createHash('md5');
        let size = 0;
        let head = Buffer.alloc(0);
        let headChecked = false;
        const checkHead = () => {
          headChecked = true;
          if (!isMp4Start(head)) throw notMp4();
        };
        const meter = new Transform({
          transform(chunk: Buffer, _encoding, done) {
            try {
              size += chunk.length;
              if (size > maxBytes) throw videoTooLarge(maxBytes);
              if (!headChecked) {
                head = Buffer.concat([head, chunk.subarray(0, MP4_SIGNATURE_BYTES - head.length)]);
                if (head.length >= MP4_SIGNATURE_BYTES) checkHead();
              }
              sha256.update(chunk);
              md5.update(chunk);
              done(null, chunk);
            } catch (error) {
              done(error as Error);
            }
          },
          flush(done) {
            try {
              if (!headChecked) checkHead();
              done();
            } catch (error) {
              done(error as Error);
            }
          },
        });
        await pipeline(stream, meter, fs.createWriteStream(spooled, { flags: 'wx', mode: 0o600 }));
        file = {
          path: spooled,
          size,
          sha256: sha256.digest('hex'),
          md5: md5.digest('base64'),
          originalName: info.filename ?? '',
        };
      })();
      writing.catch(fail);
    });

    form.on('close', () => {
      void writing.then(
        () => {
          if (settled) return;
          settled = true;
          resolve({ fields, file });
        },
        () => undefined, // already failed
      );
    });

    req.on('close', () => {
      if (!req.complete) fail(badRequest('The upload was interrupted before it finished.'));
    });
    req.on('error', (error) => fail(badRequest(`The upload was interrupted: ${error.message}.`)));
    req.pipe(form);
  });
}
