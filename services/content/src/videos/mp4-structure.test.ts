import fs from 'node:fs';
import { TINY_MP4 } from '@uis/kit/testing';
import { Mp4StructureCheck, NotMp4Error } from './mp4-structure';

const FIXTURE = fs.readFileSync(TINY_MP4);

/** A box with a 32-bit size. */
const box = (type: string, body: Buffer | number = 0, size?: number) => {
  const content = typeof body === 'number' ? Buffer.alloc(body, 0x61) : body;
  const head = Buffer.alloc(8);
  head.writeUInt32BE(size ?? 8 + content.length, 0);
  head.write(type, 4, 'latin1');
  return Buffer.concat([head, content]);
};
/** A box with size 1 and a 64-bit largesize. */
const largeBox = (type: string, body: number, largeSize = BigInt(16 + body)) => {
  const head = Buffer.alloc(16);
  head.writeUInt32BE(1, 0);
  head.write(type, 4, 'latin1');
  head.writeBigUInt64BE(largeSize, 8);
  return Buffer.concat([head, Buffer.alloc(body, 0x62)]);
};
/** A box with size 0: it runs to the end of the file. */
const lastBox = (type: string, body: number) => box(type, body, 0);
const ftyp = (brand = 'isom') => box('ftyp', Buffer.from(`${brand}\0\0\x02\0isomiso2mp41`, 'latin1'));

/** Feeds the file in the given pieces; answers 'MP4' or the reason it is not one. */
const verdict = (pieces: Buffer[]): string => {
  const check = new Mp4StructureCheck();
  try {
    for (const piece of pieces) check.push(piece);
    check.end();
    return 'MP4';
  } catch (error) {
    if (!(error instanceof NotMp4Error)) throw error;
    return error.message;
  }
};

/** Every way to cut the file in two and byte by byte: a chunk may end anywhere, inside a header too. */
const verdictsOfEveryChunking = (file: Buffer) => {
  const verdicts = new Set<string>();
  verdicts.add(verdict([file]));
  verdicts.add(verdict([...file].map((byte) => Buffer.from([byte]))));
  for (let cut = 0; cut <= file.length; cut++)
    verdicts.add(verdict([file.subarray(0, cut), file.subarray(cut)]));
  return [...verdicts];
};

describe('Mp4StructureCheck', () => {
  describe('accepts', () => {
    it.each([
      ['the fixture ffmpeg made (ftyp, moov, free, mdat)', FIXTURE],
      ['ftyp and moov alone', Buffer.concat([ftyp(), box('moov', 100)])],
      ['moov after mdat', Buffer.concat([ftyp(), box('free'), box('mdat', 300), box('moov', 50)])],
      ['a box with a 64-bit largesize', Buffer.concat([ftyp(), box('moov', 20), largeBox('mdat', 40)])],
      [
        'a last box of size 0 (to the end of the file)',
        Buffer.concat([ftyp(), box('moov', 20), lastBox('mdat', 70)]),
      ],
      ['an empty last box of size 0', Buffer.concat([ftyp(), box('moov', 20), lastBox('mdat', 0)])],
      ['a moov of size 0 at the end', Buffer.concat([ftyp(), box('mdat', 30), lastBox('moov', 20)])],
      [
        'fragments (moov, then moof/mdat pairs)',
        Buffer.concat([
          ftyp('iso6'),
          box('moov', 40),
          box('moof', 12),
          box('mdat', 9),
          box('moof', 12),
          box('mdat', 9),
          box('mfra', 16),
        ]),
      ],
      [
        'a uuid box and a type with a space',
        Buffer.concat([ftyp(), box('uuid', 16), box('moov', 8), box('url ', 0)]),
      ],
    ])('%s, in any chunking', (_label, file) => {
      expect(verdictsOfEveryChunking(file)).toEqual(['MP4']);
    });

    it('a 6 GiB box (largesize), skipped without buffering', () => {
      const check = new Mp4StructureCheck();
      const big = 6 * 1024 ** 3;
      const header = largeBox('mdat', 0, BigInt(16 + big));
      check.push(Buffer.concat([ftyp(), box('moov', 8), header]));
      const chunk = Buffer.alloc(64 * 1024 * 1024);
      for (let sent = 0; sent < big; sent += chunk.length) check.push(chunk);
      expect(() => check.end()).not.toThrow();
    });

    it.each([
      'isom',
      'iso2',
      'iso6',
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
    ])('the MP4 brand %j', (brand) => expect(verdict([ftyp(brand), box('moov', 8)])).toBe('MP4'));
  });

  describe('refuses', () => {
    it.each([
      ['an empty file', Buffer.alloc(0), 'it is empty'],
      ['a bare ftyp', ftyp(), 'it has no moov box'],
      [
        'ftyp, free and mdat without moov',
        Buffer.concat([ftyp(), box('free'), box('mdat', 50)]),
        'it has no moov box',
      ],
      [
        'moov swallowed by an earlier size-0 box',
        Buffer.concat([ftyp(), lastBox('mdat', 10), box('moov', 8)]),
        'it has no moov box',
      ],
      [
        'an MP4 followed by an HTML page',
        Buffer.concat([
          FIXTURE,
          Buffer.from('<!DOCTYPE html><html><body><script>alert(1)</script></body></html>'),
        ]),
        'before the end of the box at byte 4726',
      ],
      [
        'an MP4 with 3 bytes after its last box',
        Buffer.concat([FIXTURE, Buffer.from('abc')]),
        'inside the header of the box at byte 4726',
      ],
      [
        'an MP4 cut short',
        FIXTURE.subarray(0, FIXTURE.length - 1),
        'it ends 1 bytes before the end of the box at byte 992',
      ],
      [
        'an MP4 cut inside a largesize header',
        Buffer.concat([ftyp(), box('moov', 8), largeBox('mdat', 4)]).subarray(0, 50),
        'inside the header of the box at byte 44',
      ],
      [
        'a largesize box cut short',
        Buffer.concat([ftyp(), box('moov', 8), largeBox('mdat', 20, 1000n)]),
        'before the end of the box at byte 44',
      ],
    ])('%s, at the end', (_label, file, reason) => {
      const verdicts = verdictsOfEveryChunking(file);
      expect(verdicts).toHaveLength(1);
      expect(verdicts[0]).toContain(reason);
    });

    /** The file must be refused by the time its first `at` bytes have been pushed, not later. */
    const refusedAt = (file: Buffer, at: number) => {
      const check = new Mp4StructureCheck();
      expect(() => check.push(file.subarray(0, at - 1))).not.toThrow();
      expect(() => check.push(file.subarray(at - 1, at))).toThrow(NotMp4Error);
      // And it stays refused.
      expect(() => check.push(Buffer.alloc(1))).toThrow(NotMp4Error);
      expect(() => check.end()).toThrow(NotMp4Error);
    };

    it('another format at its 8th byte, another brand at its 12th', () => {
      refusedAt(Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), 8); // PNG
      refusedAt(Buffer.from('1a45dfa3a34286810142f7810142f281', 'hex'), 8); // WebM
      refusedAt(Buffer.from('<!DOCTYPE html><html>'), 8);
      refusedAt(Buffer.from('This is not a video at all.'), 8);
      refusedAt(Buffer.concat([box('moov', 8), ftyp()]), 8);
      refusedAt(Buffer.concat([ftyp('qt  '), box('moov', 8)]), 12);
    });

    it('a malformed box header as soon as it is read', () => {
      const start = Buffer.concat([ftyp(), box('moov', 8)]);
      const at = start.length;
      refusedAt(Buffer.concat([start, Buffer.alloc(8)]), at + 8); // size 0, type of NUL bytes
      refusedAt(Buffer.concat([start, box('mdat', 0, 7)]), at + 8); // size below 8
      refusedAt(Buffer.concat([start, box('md\nt', 4)]), at + 8); // type not printable
      refusedAt(Buffer.concat([start, box('mdät', 4)]), at + 8); // not ASCII
      refusedAt(Buffer.concat([start, largeBox('mdat', 0, 15n)]), at + 16); // largesize below its header
      refusedAt(Buffer.concat([start, largeBox('mdat', 0, 2n ** 63n)]), at + 16); // larger than any file
    });

    it.each([
      ['too small', 8],
      ['not whole brands', 18],
      ['size 1 (a largesize ftyp)', 1],
      ['size 0', 0],
      ['too large', 0x10000],
    ])('an ftyp box whose size is %s', (_label, size) => {
      refusedAt(Buffer.concat([box('ftyp', Buffer.from('isom\0\0\0\0'), size), box('moov', 8)]), 8);
    });

    it.each(['qt  ', 'M4A ', 'M4B ', '3gp4', '3g2a', 'heic', 'mif1', 'avif', 'ISOM', 'mp4 ', '    '])(
      'the brand %j',
      (brand) => expect(verdict([ftyp(brand), box('moov', 8)])).toContain('is not an MP4 brand'),
    );
  });
});
