import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { IncomingMessage } from 'node:http';
import busboy from 'busboy';
import { badRequest } from '@uis/kit';
import type { SpooledFile } from './object-store';
import { Mp4StructureCheck, NotMp4Error } from './mp4-structure';
import { notMp4, videoTooLarge } from './upload-errors';

/** Room for the form's text fields, part headers and boundaries on top of the file itself. */
export const FORM_OVERHEAD_BYTES = 64 * 1024;

/**
 * The least the file can be, from the request's Content-Length, before any of it is read: a browser's
 * form adds a few hundred bytes to its file, FORM_OVERHEAD_BYTES is far more. Undefined when no length
 * is declared (a chunked upload) or it is too small to say anything.
 */
export const leastFileBytes = (req: IncomingMessage): number | undefined => {
  const declared = Number(req.headers['content-length']);
  return Number.isFinite(declared) && declared > FORM_OVERHEAD_BYTES
    ? declared - FORM_OVERHEAD_BYTES
    : undefined;
};

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

/** The uploader hears only that the file is not an MP4; the reason is for whoever debugs it. */
const asNotMp4 = (error: unknown): Error =>
  error instanceof NotMp4Error ? Object.assign(notMp4(), { cause: error }) : (error as Error);

const removeQuietly = (file: string) => fs.promises.rm(file, { force: true }).catch(() => undefined);

/**
 * Reads a multipart upload as it streams in: text fields into memory (small, limited), the one file
 * to a temp file on disk while counting its bytes, hashing it and checking its box structure is an
 * MP4's (Mp4StructureCheck). Refuses as soon as it knows: a Content-Length past the limit before
 * reading anything, a file past the limit at the byte that passes it, a non-MP4 at the byte that
 * shows it (the 8th for another format, the 12th for another brand, the last for a file that does
 * not end where its boxes do), a text field sent twice. The temp file is removed on every failure;
 * on success the caller owns it (and removes it). Either field order works.
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

    // A Map, so a field called __proto__ is just a field.
    const fields = new Map<string, string>();
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
      // A form that says one thing twice is refused rather than read one way: keeping the last value
      // let a sessionId checked before the file be replaced by another one after it.
      if (fields.has(name)) return fail(badRequest(`Send ${name} only once.`));
      fields.set(name, value);
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
        await options.beforeFile(Object.fromEntries(fields));
        if (settled) return;
        const sha256 = createHash('sha256');
        const md5 = createHash('md5');
        const structure = new Mp4StructureCheck();
        let size = 0;
        const meter = new Transform({
          transform(chunk: Buffer, _encoding, done) {
            try {
              size += chunk.length;
              if (size > maxBytes) throw videoTooLarge(maxBytes);
              structure.push(chunk);
              sha256.update(chunk);
              md5.update(chunk);
              done(null, chunk);
            } catch (error) {
              done(asNotMp4(error));
            }
          },
          flush(done) {
            try {
              structure.end();
              done();
            } catch (error) {
              done(asNotMp4(error));
            }
          },
        });
        const sink = fs.createWriteStream(spooled, { flags: 'wx', mode: 0o600 });
        const sinkClosed = new Promise<void>((resolve) => sink.once('close', () => resolve()));
        // A failure rejects the pipeline at once, while the file's open() may still be on its way:
        // removed before that, the file would be created after. Fail once the file is closed.
        await pipeline(stream, meter, sink).catch(async (error: unknown) => {
          await sinkClosed;
          throw error;
        });
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
          resolve({ fields: Object.fromEntries(fields), file });
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
