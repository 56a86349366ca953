import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '@uis/kit/testing';
import { startEmbeddedS3, type EmbeddedS3 } from '../src/embedded-s3';
import { StartupError } from '../src/startup-error';

describe('embedded S3', () => {
  let directory: string;
  let s3: EmbeddedS3 | undefined;

  beforeAll(() => {
    directory = fs.mkdtempSync(path.join(os.tmpdir(), 'uis-s3-'));
  });
  afterAll(async () => {
    await s3?.stop();
    fs.rmSync(directory, { recursive: true, force: true });
  });

  it('serves on loopback with the bucket created, and gives the variables content reads', async () => {
    const port = await freePort();
    s3 = await startEmbeddedS3({ directory, port, bucket: 'uis-videos' });
    expect(s3.env).toEqual({
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_ACCESS_KEY: 'S3RVER',
      S3_SECRET_KEY: 'S3RVER',
      S3_BUCKET: 'uis-videos',
    });
    const listing = await fetch(`${s3.env.S3_ENDPOINT}/`).then((res) => res.text());
    expect(listing).toContain('<Name>uis-videos</Name>');
    expect(fs.existsSync(path.join(directory, 'uis-videos'))).toBe(true);
    await s3.stop();
    s3 = undefined;
  });

  it('fails with the port message, not a hang, when its port is taken', async () => {
    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', () => resolve()));
    const { port } = holder.address() as net.AddressInfo;
    try {
      const start = startEmbeddedS3({ directory, port, bucket: 'uis-videos' });
      await expect(start).rejects.toBeInstanceOf(StartupError);
      await expect(startEmbeddedS3({ directory, port, bucket: 'uis-videos' })).rejects.toThrow(
        `Port ${port} is already in use (another S3 server?). Stop it or set EMBEDDED_S3_PORT.`,
      );
    } finally {
      holder.close();
    }
  });
});
