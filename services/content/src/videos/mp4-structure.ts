/**
 * The major brands accepted in the first box, `ftyp`: the MP4 family a browser plays as video/mp4.
 * The ISO base brands (isom, iso2-iso9), MP4 versions 1 and 2 (mp41, mp42), H.264 (avc1), DASH /
 * fragmented MP4 (dash), Apple's M4V variants (M4V, M4VH, M4VP), Flash MP4 video (f4v), and the
 * mobile MP4 brands (mmp4, MSNV).
 *
 * Refused on purpose although they are ISO base media too: QuickTime (`qt  `, a .mov is not an MP4
 * and not every browser plays it), audio-only M4A/M4B/M4P, 3GPP (3gp*, 3g2*), and image formats that
 * share the box structure (heic, heix, mif1, msf1, avif): an AVIF renamed to .mp4 must not pass.
 * Only the major brand counts: compatible brands would let an M4A that lists `isom` through.
 */
export const MP4_BRANDS: ReadonlySet<string> = new Set([
  'isom',
  'iso2',
  'iso3',
  'iso4',
  'iso5',
  'iso6',
  'iso7',
  'iso8',
  'iso9',
  'mp41',
  'mp42',
  'avc1',
  'dash',
  'M4V ',
  'M4VH',
  'M4VP',
  'f4v ',
  'mmp4',
  'MSNV',
]);

/** Why a file is not an MP4: for tests and logs; the uploader is told only that it is not one. */
export class NotMp4Error extends Error {
  override name = 'NotMp4Error';
}

/** size (32 bits) + type. */
const HEADER_BYTES = 8;
/** size = 1, type, then the 64-bit largesize. */
const LARGE_HEADER_BYTES = 16;
/** The first box's header and the major brand that follows it. */
const FTYP_HEAD_BYTES = 12;
/** An `ftyp` box is 8 header bytes, a major brand, a minor version and whole 4-byte compatible brands. */
const FTYP_MIN_SIZE = 16;
const FTYP_MAX_SIZE = 4096;
const MAX_SIZE = BigInt(Number.MAX_SAFE_INTEGER);

/** A box type is four printable ASCII characters (`ftyp`, `moov`, `mdat`, `free`, `uuid`, ...). */
const hasPrintableType = (bytes: Buffer, boxAt: number) => {
  for (let i = boxAt + 4; i < boxAt + HEADER_BYTES; i++) {
    const byte = bytes[i]!;
    if (byte < 0x20 || byte > 0x7e) return false;
  }
  return true;
};
const MOOV = Buffer.from('moov', 'latin1').readUInt32BE(0);
const isMoov = (bytes: Buffer, boxAt: number) => bytes.readUInt32BE(boxAt + 4) === MOOV;

/**
 * Decides, as the bytes arrive, whether a file is an MP4 by its ISO base media (ISO/IEC 14496-12)
 * top-level structure, never by its name: the first box is `ftyp` with an MP4 major brand; every
 * top-level box header is well formed (a 32-bit size of at least 8, or 1 followed by a 64-bit
 * largesize, or 0 for a last box that runs to the end of the file; a type of four printable
 * characters); the boxes add up exactly to the file (nothing trailing, nothing cut short); and a
 * `moov` box (the index a player needs) is among them, before or after `mdat`.
 *
 * A file with an MP4 header and something else after it (an HTML page, a script) fails: the bytes
 * that follow the last box do not make a box that ends where the file ends.
 *
 * Only the box headers are read; bodies are counted and skipped, so memory stays at one 16-byte
 * header whatever the file's size, and a chunk may end anywhere, inside a header too. `push` throws
 * as soon as the structure is known to be wrong (the first 8 bytes for another format, the 12th for
 * another brand), `end` when the file is cut short, has bytes left over, or has no `moov`.
 */
export class Mp4StructureCheck {
  private readonly head = Buffer.alloc(LARGE_HEADER_BYTES);
  private headLength = 0;
  private headNeeded = HEADER_BYTES;
  /** Bytes of the current box still to come after its header; 0 when a header comes next. */
  private bodyLeft = 0;
  /** After a box of size 0 every byte is its body. */
  private toEnd = false;
  private boxes = 0;
  private sawMoov = false;
  /** Bytes read so far, and where the box being read began (for the reasons). */
  private position = 0;
  private boxStart = 0;
  private failure: NotMp4Error | null = null;

  /** The next bytes of the file. Throws NotMp4Error once the structure is known to be wrong. */
  push(chunk: Uint8Array): void {
    if (this.failure) throw this.failure;
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    let at = 0;
    while (at < bytes.length && !this.toEnd) {
      if (this.bodyLeft > 0) {
        const skipped = Math.min(this.bodyLeft, bytes.length - at);
        this.bodyLeft -= skipped;
        at += skipped;
        this.position += skipped;
        continue;
      }
      if (this.headLength === 0) {
        this.boxStart = this.position;
        // The common case, read in place: a whole plain header in this chunk (the first box, sizes 0
        // and 1 and anything wrong take the path below). Copying every header would make a file of
        // 8-byte boxes a cheap way to keep the server busy: this way it is checked at hashing speed.
        const size = this.boxes > 0 && bytes.length - at >= HEADER_BYTES ? bytes.readUInt32BE(at) : 0;
        if (size >= HEADER_BYTES && hasPrintableType(bytes, at)) {
          this.boxes++;
          if (isMoov(bytes, at)) this.sawMoov = true;
          this.bodyLeft = size - HEADER_BYTES;
          at += HEADER_BYTES;
          this.position += HEADER_BYTES;
          continue;
        }
      }
      const copied = Math.min(this.headNeeded - this.headLength, bytes.length - at);
      bytes.copy(this.head, this.headLength, at, at + copied);
      this.headLength += copied;
      at += copied;
      this.position += copied;
      if (this.headLength === this.headNeeded) this.readHeader();
    }
    this.position += bytes.length - at;
  }

  /** The file is complete. Throws NotMp4Error unless its boxes end exactly with it and include `moov`. */
  end(): void {
    if (this.failure) throw this.failure;
    if (this.headLength > 0) this.fail(`it ends inside the header of the box at byte ${this.boxStart}`);
    if (this.bodyLeft > 0) {
      this.fail(`it ends ${this.bodyLeft} bytes before the end of the box at byte ${this.boxStart}`);
    }
    if (this.boxes === 0) this.fail('it is empty');
    if (!this.sawMoov) this.fail('it has no moov box');
  }

  private readHeader(): void {
    const size = this.head.readUInt32BE(0);
    const type = this.head.toString('latin1', 4, 8);
    const first = this.boxes === 0;

    if (this.headLength === HEADER_BYTES) {
      if (!hasPrintableType(this.head, 0)) this.fail(`the box at byte ${this.boxStart} has no valid type`);
      if (first) {
        if (type !== 'ftyp') this.fail(`it starts with a ${JSON.stringify(type)} box, not ftyp`);
        if (size < FTYP_MIN_SIZE || size > FTYP_MAX_SIZE || (size - FTYP_MIN_SIZE) % 4 !== 0) {
          this.fail(`its ftyp box cannot be ${size} bytes long`);
        }
        this.headNeeded = FTYP_HEAD_BYTES;
        return;
      }
      if (size === 1) {
        this.headNeeded = LARGE_HEADER_BYTES;
        return;
      }
      if (size === 0) return this.startBody(type, null);
      if (size < HEADER_BYTES) this.fail(`the ${type} box at byte ${this.boxStart} declares ${size} bytes`);
      return this.startBody(type, size);
    }

    if (first) {
      const brand = this.head.toString('latin1', 8, 12);
      if (!MP4_BRANDS.has(brand)) this.fail(`its major brand ${JSON.stringify(brand)} is not an MP4 brand`);
      return this.startBody(type, size);
    }

    const largeSize = this.head.readBigUInt64BE(8);
    if (largeSize < BigInt(LARGE_HEADER_BYTES) || largeSize > MAX_SIZE) {
      this.fail(`the ${type} box at byte ${this.boxStart} declares ${largeSize} bytes`);
    }
    this.startBody(type, Number(largeSize));
  }

  /** The header is read: count the box and skip its body (`null`: to the end of the file). */
  private startBody(type: string, size: number | null): void {
    this.boxes++;
    if (type === 'moov') this.sawMoov = true;
    if (size === null) this.toEnd = true;
    else this.bodyLeft = size - this.headLength;
    this.headLength = 0;
    this.headNeeded = HEADER_BYTES;
  }

  private fail(reason: string): never {
    this.failure = new NotMp4Error(`Not an MP4: ${reason}.`);
    throw this.failure;
  }
}
