/// <reference types="node" />
import zlib from 'node:zlib';

/**
 * The files of a ZIP archive (the study export), read from its central directory: enough for a test
 * to open participants.csv without a ZIP library in web's dependencies. Stored and deflated entries
 * only (what archivers write); sizes come from the central directory, so entries written with a data
 * descriptor (a streamed archive) read too.
 */
export function unzip(archive: Buffer): Map<string, Buffer> {
  const END_SIGNATURE = 0x06054b50;
  const CENTRAL_SIGNATURE = 0x02014b50;
  const LOCAL_SIGNATURE = 0x04034b50;
  // The end record is in the last 22 bytes plus a comment of at most 64 KiB.
  let end = -1;
  for (let at = archive.length - 22; at >= Math.max(0, archive.length - 22 - 0xffff); at--) {
    if (archive.readUInt32LE(at) === END_SIGNATURE) {
      end = at;
      break;
    }
  }
  if (end < 0) throw new Error('not a ZIP archive: no end of central directory');
  const count = archive.readUInt16LE(end + 10);
  let at = archive.readUInt32LE(end + 16);
  const files = new Map<string, Buffer>();
  for (let index = 0; index < count; index++) {
    if (archive.readUInt32LE(at) !== CENTRAL_SIGNATURE)
      throw new Error(`bad central directory entry ${index}`);
    const method = archive.readUInt16LE(at + 10);
    const compressedSize = archive.readUInt32LE(at + 20);
    const nameLength = archive.readUInt16LE(at + 28);
    const extraLength = archive.readUInt16LE(at + 30);
    const commentLength = archive.readUInt16LE(at + 32);
    const localAt = archive.readUInt32LE(at + 42);
    const name = archive.toString('utf8', at + 46, at + 46 + nameLength);
    if (archive.readUInt32LE(localAt) !== LOCAL_SIGNATURE) throw new Error(`bad local header of ${name}`);
    const dataAt = localAt + 30 + archive.readUInt16LE(localAt + 26) + archive.readUInt16LE(localAt + 28);
    const data = archive.subarray(dataAt, dataAt + compressedSize);
    if (method === 0) files.set(name, data);
    else if (method === 8) files.set(name, zlib.inflateRawSync(data));
    else throw new Error(`${name}: compression method ${method} is not read here`);
    at += 46 + nameLength + extraLength + commentLength;
  }
  return files;
}
