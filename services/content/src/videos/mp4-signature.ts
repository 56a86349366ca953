/**
 * Is this the start of an MP4 file? Decided by content, never by name: an MP4 is an ISO base media
 * file whose first box is `ftyp` (bytes 4-7), whose major brand (bytes 8-11) says what the file is.
 *
 * The brands accepted are the MP4 family a browser plays as video/mp4: the ISO base brands (isom,
 * iso2-iso9), MP4 versions 1 and 2 (mp41, mp42), H.264 (avc1), DASH / fragmented MP4 (dash), Apple's
 * M4V variants (M4V, M4VH, M4VP), Flash MP4 video (f4v), and the mobile MP4 brands (mmp4, MSNV).
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

/** Bytes needed to decide: box size, box type, major brand. */
export const MP4_SIGNATURE_BYTES = 12;

/** An `ftyp` box is 8 header bytes, a major brand, a minor version and whole 4-byte compatible brands. */
const FTYP_MIN_SIZE = 16;
const FTYP_MAX_SIZE = 4096;

export function isMp4Start(head: Uint8Array): boolean {
  if (head.length < MP4_SIGNATURE_BYTES) return false;
  const bytes = Buffer.from(head.buffer, head.byteOffset, head.byteLength);
  const boxSize = bytes.readUInt32BE(0);
  if (boxSize < FTYP_MIN_SIZE || boxSize > FTYP_MAX_SIZE || (boxSize - FTYP_MIN_SIZE) % 4 !== 0) return false;
  if (bytes.toString('latin1', 4, 8) !== 'ftyp') return false;
  return MP4_BRANDS.has(bytes.toString('latin1', 8, 12));
}
