import { createHash, randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Readable } from 'node:stream';
import yauzl from 'yauzl';
import { VerifiedZip, type ArchivedFile } from './verified-zip';

const collect = (stream: Readable): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
  });

function unzip(bytes: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (error, zip) => {
      if (error) return reject(error);
      const files = new Map<string, Buffer>();
      zip.on('end', () => resolve(files));
      zip.on('error', reject);
      zip.on('entry', (entry: yauzl.Entry) =>
        zip.openReadStream(entry, (openError, stream) => {
          if (openError) return reject(openError);
          void collect(stream).then((data) => {
            files.set(entry.fileName, data);
            zip.readEntry();
          }, reject);
        }),
      );
      zip.readEntry();
    });
  });
}

function* numbered(count: number): Generator<{ n: number; text: string }> {
  for (let n = 0; n < count; n++) yield { n, text: `row ${n}` };
}

describe('VerifiedZip', () => {
  it('lists each file with its rows, bytes and SHA-256, and writes the last file from that list', async () => {
    const zip = new VerifiedZip(new Date('2025-01-02T03:04:05Z'));
    zip.addCsv('a.csv', ['n', 'text'], () => numbered(2500));
    zip.addCsv('b.csv', ['n'], () => [{ n: 1 }, { n: '=2' }]);
    zip.addCsv('empty.csv', ['n'], () => []);
    let listed: readonly ArchivedFile[] = [];
    zip.end('list.json', (files) => {
      listed = files;
      return JSON.stringify(files);
    });
    const files = await unzip(await collect(zip.output));

    expect([...files.keys()]).toEqual(['a.csv', 'b.csv', 'empty.csv', 'list.json']);
    expect(files.get('b.csv')!.toString('utf8')).toBe("n\r\n1\r\n'=2\r\n");
    expect(files.get('empty.csv')!.toString('utf8')).toBe('n\r\n');
    expect(listed.map((file) => [file.name, file.rows])).toEqual([
      ['a.csv', 2500],
      ['b.csv', 2],
      ['empty.csv', 0],
    ]);
    for (const file of listed) {
      const bytes = files.get(file.name)!;
      expect(file.bytes).toBe(bytes.length);
      expect(file.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    }
    expect(JSON.parse(files.get('list.json')!.toString('utf8'))).toEqual(listed);
  });

  it('fails the archive when a file fails, instead of ending it', async () => {
    const zip = new VerifiedZip(new Date());
    zip.addCsv('ok.csv', ['n'], () => numbered(10));
    zip.addCsv('broken.csv', ['n'], async function* () {
      yield* numbered(5);
      // A page read that fails, as a lost connection does.
      await Promise.reject(new Error('the database went away'));
    });
    zip.end('list.json', () => '[]');
    await expect(collect(zip.output)).rejects.toThrow('the database went away');
  });

  it('reads rows only as fast as the archive is read (backpressure), and stops when it is dropped', async () => {
    let pulled = 0;
    let stopped = false;
    const zip = new VerifiedZip(new Date());
    zip.addCsv('endless.csv', ['n', 'text'], function* () {
      try {
        for (let n = 0; ; n++) {
          pulled += 1;
          // Random text: deflate cannot shrink it, so the pipes fill as fast as rows are made.
          yield { n, text: randomBytes(64).toString('hex') };
        }
      } finally {
        stopped = true;
      }
    });
    zip.end('list.json', () => '[]');
    // Nobody reads the output: the pipes fill up and the rows stop being pulled.
    let before = -1;
    while (pulled !== before) {
      before = pulled;
      await sleep(100);
    }
    // What the pipes' buffers hold (about 1,900 rows of 130 bytes here: a few hundred kB), not a growing number.
    expect(pulled).toBeLessThan(10_000);
    // The client goes away.
    zip.output.destroy();
    await sleep(50);
    expect(stopped).toBe(true);
  });
});
