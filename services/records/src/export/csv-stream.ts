import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { csvHead, csvLine, type CsvRow } from './csv';

/** Rows for a CSV, as the services' exportRows give them (or a list, for prompts). */
export type CsvRows = AsyncIterable<CsvRow> | Iterable<CsvRow>;

/** What a written CSV file was: its data rows, bytes, and the SHA-256 (hex) of the bytes. */
export interface CsvFigures {
  rows: number;
  bytes: number;
  sha256: string;
}

/**
 * About how much text goes into one chunk: the checksum, deflate (a thread-pool round trip per
 * chunk) and every pipe after them see a few chunks per thousand rows, not one per row.
 */
const CHUNK_CHARS = 64 * 1024;

/**
 * A CSV file's bytes (csvHead, then a csvLine per row), made from `rows` only when the reader asks
 * for more (backpressure: at most one chunk is made ahead). With `done`, the bytes are also counted
 * and hashed, and `done` gets the figures once the last byte is out, before the stream ends. A
 * stream destroyed early ends the rows' iterator (its page reads); rows that fail destroy the stream
 * with their error, so a download breaks off instead of ending as a file that looks complete.
 * Memory stays flat whatever the number of rows: a row lives only until its line is made, with no
 * step per row beyond the rows' own iterator, so the rows' garbage dies young (garbage that outlives
 * two minor collections is promoted, and grows the old generation until the next full one).
 */
export function csvStream(
  columns: readonly string[],
  rows: CsvRows,
  done?: (figures: CsvFigures) => void,
): Readable {
  const iterator: AsyncIterator<CsvRow> | Iterator<CsvRow> =
    Symbol.asyncIterator in rows ? rows[Symbol.asyncIterator]() : rows[Symbol.iterator]();
  const hash = done ? createHash('sha256') : undefined;
  const figures: CsvFigures = { rows: 0, bytes: 0, sha256: '' };
  let text = csvHead(columns);

  const send = (stream: Readable) => {
    if (text === '') return;
    const chunk = Buffer.from(text, 'utf8');
    text = '';
    hash?.update(chunk);
    figures.bytes += chunk.length;
    stream.push(chunk);
  };

  /** Lines of rows until a chunk's worth (or the last row), pushed as one Buffer: one push a read. */
  const makeChunk = async (stream: Readable) => {
    try {
      for (;;) {
        const next = await iterator.next();
        if (stream.destroyed) return;
        if (next.done) {
          send(stream);
          if (hash && done) {
            figures.sha256 = hash.digest('hex');
            done(figures);
          }
          stream.push(null);
          return;
        }
        text += csvLine(columns, next.value);
        figures.rows += 1;
        if (text.length >= CHUNK_CHARS) return send(stream);
      }
    } catch (error) {
      stream.destroy(error as Error);
    }
  };

  return new Readable({
    // Readable asks again only after the push that answers this read.
    read() {
      void makeChunk(this);
    },
    destroy(error, callback) {
      void Promise.resolve(iterator.return?.()).catch(() => undefined);
      callback(error);
    },
  });
}
