import { Client } from 'minio';
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
  const clientFor = (accessKey: string, secretKey: string) =>
    new Client({
      endPoint: '127.0.0.1',
      port: Number(new URL(s3!.env.S3_ENDPOINT).port),
      useSSL: false,
      accessKey,
      secretKey,
      pathStyle: true,
      region: 'us-east-1',
    });

  afterAll(async () => {
    await s3?.stop();
    fs.rmSync(directory, { recursive: true, force: true });
  });

  it('serves on loopback with the bucket created, and gives the variables content reads', async () => {
    const port = await freePort();
    s3 = await startEmbeddedS3({
      directory,
      port,
      bucket: 'uis-videos',
      accessKey: 'ours',
      secretKey: 'x'.repeat(40),
    });
    expect(s3.env).toEqual({
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_ACCESS_KEY: 'ours',
      S3_SECRET_KEY: 'x'.repeat(40),
      S3_BUCKET: 'uis-videos',
    });
    const client = clientFor(s3.env.S3_ACCESS_KEY, s3.env.S3_SECRET_KEY);
    expect((await client.listBuckets()).map((bucket) => bucket.name)).toEqual(['uis-videos']);
    expect(fs.existsSync(path.join(directory, 'uis-videos'))).toBe(true);
    await s3.stop();
    s3 = undefined;
  });

  // The probe wrote into the embedded store anonymously: s3rver takes unsigned requests and its own
  // well-known key pair.
  it('refuses anonymous requests, its well-known key pair and a wrong secret', async () => {
    const port = await freePort();
    s3 = await startEmbeddedS3({ directory, port, bucket: 'uis-videos' });
    expect(s3.env.S3_ACCESS_KEY).not.toBe('S3RVER');
    const anonymous = await fetch(`${s3.env.S3_ENDPOINT}/uis-videos/planted.mp4`, {
      method: 'PUT',
      body: 'x',
    });
    expect(anonymous.status).toBe(403);
    expect((await fetch(`${s3.env.S3_ENDPOINT}/`)).status).toBe(403);
    await expect(clientFor('S3RVER', 'S3RVER').putObject('uis-videos', 'planted.mp4', 'x')).rejects.toThrow();
    await expect(
      clientFor(s3.env.S3_ACCESS_KEY, 'wrong-secret').putObject('uis-videos', 'planted.mp4', 'x'),
    ).rejects.toThrow();
    await clientFor(s3.env.S3_ACCESS_KEY, s3.env.S3_SECRET_KEY).putObject('uis-videos', 'ours.mp4', 'x');
    const names = await new Promise<string[]>((resolve, reject) => {
      const found: string[] = [];
      clientFor(s3!.env.S3_ACCESS_KEY, s3!.env.S3_SECRET_KEY)
        .listObjectsV2('uis-videos')
        .on('data', (item) => found.push(item.name ?? ''))
        .on('end', () => resolve(found))
        .on('error', reject);
    });
    expect(names).toEqual(['ours.mp4']);
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
