import { createHash } from 'node:crypto';
import { Readable, type PassThrough } from 'node:stream';
import { ZipFile } from 'yazl';
import { csvStream, type CsvFigures, type CsvRows } from '../export/csv-stream';

export type { CsvRows } from '../export/csv-stream';

/** What the archive says of each of its files: data rows, bytes, SHA-256 (hex) of the bytes. */
export interface ArchivedFile extends CsvFigures {
  name: string;
}

/**
 * A ZIP archive streamed as it is written (yazl), each file hashed and counted on its way in, so the
 * last file can vouch for the others without anything being held in memory.
 * - Files are written one after the other; each one's rows are asked for only when the archive
 *   reaches it (yazl's lazy entries), so at most one read of Postgres is under way, and it waits
 *   whenever the client does (pipes all the way from the page reads to the socket: backpressure).
 * - A file that fails (a page read, the CSV writer) fails `output`: the download breaks off instead of
 *   ending as an archive that looks complete. A client that goes away (`output` destroyed) stops the
 *   file being read.
 */
export class VerifiedZip {
  private readonly zip = new ZipFile();
  private readonly written: ArchivedFile[] = [];
  /** The file being read now, stopped if the download ends early. */
  private current: Readable | undefined;
  /** The archive's bytes, for the response (yazl's output is a PassThrough; its types say less). */
  readonly output = this.zip.outputStream as PassThrough;

  constructor(private readonly mtime: Date) {
    this.zip.on('error', (error: Error) => this.fail(error));
    this.output.on('close', () => {
      if (!this.output.readableEnded) this.current?.destroy();
    });
  }

  /** The files written so far, in order (complete once the last file's content is asked for). */
  get files(): readonly ArchivedFile[] {
    return this.written;
  }

  /** A CSV file of `columns` (csvStream: header, formula neutralisation) from `rows()`. */
  addCsv(name: string, columns: readonly string[], rows: () => CsvRows): void {
    this.zip.addReadStreamLazy(name, { mtime: this.mtime }, (ready) => {
      const file = csvStream(columns, rows(), (figures) => this.written.push({ name, ...figures }));
      file.on('error', (error: Error) => this.fail(error));
      this.current = file;
      ready(null, file);
    });
  }

  /** A text file made by `content` when the archive reaches it, hashed as the CSVs are. */
  addText(name: string, content: () => string): void {
    this.zip.addReadStreamLazy(name, { mtime: this.mtime }, (ready) => {
      let bytes: Buffer;
      try {
        bytes = Buffer.from(content(), 'utf8');
      } catch (error) {
        this.fail(error as Error);
        return;
      }
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      this.written.push({ name, rows: 0, bytes: bytes.length, sha256 });
      ready(null, Readable.from([bytes]));
    });
  }

  /**
   * The last file, made by `content` from the files before it once they are all written, then the
   * archive's end (its central directory).
   */
  end(name: string, content: (files: readonly ArchivedFile[]) => string): void {
    this.zip.addReadStreamLazy(name, { mtime: this.mtime }, (ready) => {
      let text: string;
      try {
        text = content(this.written);
      } catch (error) {
        this.fail(error as Error);
        return;
      }
      ready(null, Readable.from([Buffer.from(text, 'utf8')]));
    });
    this.zip.end();
  }

  private fail(error: Error): void {
    this.current?.destroy();
    this.output.destroy(error);
  }
}
