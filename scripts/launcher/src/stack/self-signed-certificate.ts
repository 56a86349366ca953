import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../data-dir';
import { StartupError } from '../startup-error';

/** The gateway's certificate files, as nginx.conf names them (`tls/tls.crt`, `tls/tls.key`). */
export const certificateFiles = (dir: string) => ({
  certificate: path.join(dir, 'tls.crt'),
  key: path.join(dir, 'tls.key'),
});

/**
 * A self-signed certificate for localhost in `dir`, made with openssl once and kept: for local use
 * only (browsers warn; `curl -k`). Deployments mount their own certificate instead.
 */
export function ensureSelfSignedCertificate(dir: string): { certificate: string; key: string } {
  const files = certificateFiles(dir);
  if (existsSync(files.certificate) && existsSync(files.key)) return files;
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-sha256',
        '-days',
        '825',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1',
        '-keyout',
        files.key,
        '-out',
        files.certificate,
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
  } catch (error) {
    const detail = (error as { stderr?: Buffer }).stderr?.toString().trim() ?? (error as Error).message;
    throw new StartupError(`Could not make a self-signed certificate with openssl: ${detail}`);
  }
  return files;
}

if (require.main === module) {
  // `npm run gateway:cert [-- DIR]`: the certificate a local docker compose mounts (gateway/tls by default).
  const dir = path.resolve(process.argv[2] ?? path.join(repoRoot(), 'gateway', 'tls'));
  const files = ensureSelfSignedCertificate(dir);
  console.log(`Self-signed certificate for localhost: ${files.certificate} (key ${files.key})`);
}
