import fs from 'node:fs';
import path from 'node:path';
import { MP4_SIGNATURE_BYTES, isMp4Start } from './mp4-signature';

const ftyp = (brand: string, size = 32, type = 'ftyp') => {
  const head = Buffer.alloc(16);
  head.writeUInt32BE(size, 0);
  head.write(type, 4, 'latin1');
  head.write(brand, 8, 'latin1');
  return head;
};

describe('isMp4Start', () => {
  it('accepts the fixture ffmpeg made (isom)', () => {
    const fixture = fs.readFileSync(path.join(__dirname, '../../test/fixtures/tiny.mp4'));
    expect(isMp4Start(fixture.subarray(0, MP4_SIGNATURE_BYTES))).toBe(true);
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
  ])('accepts the MP4 brand %j', (brand) => expect(isMp4Start(ftyp(brand))).toBe(true));

  it.each(['qt  ', 'M4A ', 'M4B ', '3gp4', '3g2a', 'heic', 'mif1', 'avif', 'ISOM', 'mp4 ', '    '])(
    'refuses the brand %j',
    (brand) => expect(isMp4Start(ftyp(brand))).toBe(false),
  );

  it('refuses other box types, bad box sizes and short heads', () => {
    expect(isMp4Start(ftyp('isom', 32, 'moov'))).toBe(false);
    expect(isMp4Start(ftyp('isom', 32, 'FTYP'))).toBe(false);
    expect(isMp4Start(ftyp('isom', 8))).toBe(false);
    expect(isMp4Start(ftyp('isom', 18))).toBe(false);
    expect(isMp4Start(ftyp('isom', 1))).toBe(false);
    expect(isMp4Start(ftyp('isom', 0x10000))).toBe(false);
    expect(isMp4Start(ftyp('isom').subarray(0, 11))).toBe(false);
    expect(isMp4Start(Buffer.alloc(0))).toBe(false);
  });

  it('refuses other formats renamed to .mp4', () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
    const text = Buffer.from('This is not a video at all.');
    const webm = Buffer.from('1a45dfa3a34286810142f7810142f281', 'hex');
    for (const head of [png, text, webm]) expect(isMp4Start(head)).toBe(false);
  });
});
