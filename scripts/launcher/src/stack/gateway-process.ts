import { execFileSync } from 'node:child_process';
import dgram from 'node:dgram';
import fs from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import { API_PORT, APP_CONFIG_PATH, type AppConfig } from '@uis/proto';
import { repoRoot } from '../data-dir';
import type { Lifecycle } from '../lifecycle';
import { GENERATED_GATEWAY_FILES, upstreamsConf, type UpstreamAddresses } from '../gateway-config';
import { StartupError } from '../startup-error';
import { startChild, waitUntilReady, type Child, type LineSink } from './child-process';

/** Debian's and most distributions' nginx; NGINX_BIN names another. */
const nginxBinary = () =>
  process.env.NGINX_BIN || (fs.existsSync('/usr/sbin/nginx') ? '/usr/sbin/nginx' : 'nginx');

/** The files of gateway/ the stack's nginx uses as they are (nginx.conf is copied with local paths). */
const INCLUDED_AS_IS = [
  'proxy-headers.conf',
  ...Object.keys(GENERATED_GATEWAY_FILES)
    .map((file) => path.basename(file))
    .filter((file) => file !== 'upstreams.conf'),
];

export interface GatewayRun {
  /** A folder of the stack's own: nginx's prefix, config copy, temporary files and web root. */
  runDir: string;
  port: number;
  upstreams: UpstreamAddresses;
  /** The certificate and key nginx serves. */
  tls: { certificate: string; key: string };
  /** The built web app (web/dist), when there is one. */
  webDist?: string;
  /** The UDP port where the stack reads nginx's access log (syslog). */
  accessLogPort: number;
  /** The web app's run-time settings, served as /app-config.json. */
  appConfig: AppConfig;
}

/**
 * Lays out nginx's prefix for a run on this machine: the checked-in gateway/nginx.conf with its port,
 * pid and temporary paths moved into the run folder (two stacks, or a stack and the gateway image's
 * defaults, never share them), the upstreams of the local processes, the certificate, and a web root
 * that links the built app's files and adds this run's app-config.json.
 */
export function prepareGatewayRun(run: GatewayRun): string {
  const gatewayDir = path.join(repoRoot(), 'gateway');
  fs.rmSync(run.runDir, { recursive: true, force: true });
  for (const dir of ['tls', 'tmp', 'html']) fs.mkdirSync(path.join(run.runDir, dir), { recursive: true });

  const nginxConf = fs
    .readFileSync(path.join(gatewayDir, 'nginx.conf'), 'utf8')
    .replaceAll('/tmp/uis-gateway', path.join(run.runDir, 'tmp', 'uis-gateway'))
    .replace(`listen ${API_PORT} ssl`, `listen 127.0.0.1:${run.port} ssl`)
    // The stack reads the access log over syslog: its stdout is a socket, which /dev/stdout cannot open.
    .replace(
      'access_log /dev/stdout uis;',
      `access_log syslog:server=127.0.0.1:${run.accessLogPort},nohostname,tag=gateway uis;`,
    );
  if (!nginxConf.includes(`listen 127.0.0.1:${run.port} ssl`)) {
    throw new StartupError(`gateway/nginx.conf no longer says "listen ${API_PORT} ssl": update the stack.`);
  }
  fs.writeFileSync(path.join(run.runDir, 'nginx.conf'), nginxConf);
  for (const file of INCLUDED_AS_IS)
    fs.copyFileSync(path.join(gatewayDir, file), path.join(run.runDir, file));
  fs.writeFileSync(
    path.join(run.runDir, 'upstreams.conf'),
    upstreamsConf(run.upstreams, 'The local processes of `npm run stack`.'),
  );
  fs.copyFileSync(mimeTypesFile(), path.join(run.runDir, 'mime.types'));
  fs.copyFileSync(run.tls.certificate, path.join(run.runDir, 'tls', 'tls.crt'));
  fs.copyFileSync(run.tls.key, path.join(run.runDir, 'tls', 'tls.key'));

  const webRoot = path.join(run.runDir, 'html');
  if (run.webDist) {
    for (const entry of fs.readdirSync(run.webDist)) {
      fs.symlinkSync(path.join(run.webDist, entry), path.join(webRoot, entry));
    }
  }
  fs.writeFileSync(path.join(webRoot, APP_CONFIG_PATH), `${JSON.stringify(run.appConfig)}\n`);
  return path.join(run.runDir, 'nginx.conf');
}

/** nginx's own mime.types (the config includes it): beside the binary's default config. */
function mimeTypesFile(): string {
  for (const candidate of [
    '/etc/nginx/mime.types',
    '/usr/local/etc/nginx/mime.types',
    '/opt/homebrew/etc/nginx/mime.types',
  ]) {
    if (fs.existsSync(candidate)) return candidate;
  }
  throw new StartupError('nginx mime.types not found: is nginx installed (Debian: apt-get install nginx)?');
}

/** `nginx -t` on the prepared run: a StartupError with nginx's words when the config is wrong. */
export function testGatewayConfig(runDir: string): void {
  try {
    execFileSync(
      nginxBinary(),
      ['-t', '-q', '-e', 'stderr', '-p', runDir, '-c', path.join(runDir, 'nginx.conf')],
      {
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
  } catch (error) {
    const detail = (error as { stderr?: Buffer }).stderr?.toString().trim() ?? (error as Error).message;
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    throw new StartupError(
      missing
        ? 'nginx is not installed (Debian: apt-get install nginx), or set NGINX_BIN.'
        : `The gateway's nginx config does not load:\n${detail}`,
    );
  }
}

/** Starts nginx in the foreground on the prepared run; resolves once it answers on its port. */
export async function startGateway(
  run: Omit<GatewayRun, 'accessLogPort'>,
  sink: LineSink,
  lifecycle: Lifecycle,
): Promise<Child> {
  const accessLog = dgram.createSocket('udp4');
  accessLog.on('message', (packet) => {
    // "<190>Nov 23 16:19:41 gateway: 127.0.0.1 [...] ...": the line after the syslog header.
    sink('gateway', packet.toString('utf8').replace(/^<\d+>[^:]*:\d\d:\d\d gateway: /, ''));
  });
  await new Promise<void>((resolve) => accessLog.bind(0, '127.0.0.1', resolve));
  try {
    prepareGatewayRun({ ...run, accessLogPort: accessLog.address().port });
    testGatewayConfig(run.runDir);
  } catch (error) {
    accessLog.close();
    throw error;
  }
  const child = startChild({
    label: 'gateway',
    command: nginxBinary(),
    args: [
      '-e',
      'stderr',
      '-p',
      run.runDir,
      '-c',
      path.join(run.runDir, 'nginx.conf'),
      '-g',
      globalDirectives(),
    ],
    env: process.env,
    sink,
  });
  void child.exited.then(() => accessLog.close());
  const ca = fs.readFileSync(run.tls.certificate);
  try {
    await waitUntilReady(
      child,
      () => httpsStatus(`https://localhost:${run.port}${APP_CONFIG_PATH}`, ca),
      30_000,
      lifecycle,
    );
  } catch (error) {
    await child.stop();
    throw error;
  }
  return child;
}

/**
 * In the foreground; and when the stack runs as root, workers stay root too: they would otherwise run
 * as `nobody`, who cannot read the stack's private data folder (certificate key, web root, temp files).
 */
const globalDirectives = () => (process.getuid?.() === 0 ? 'daemon off; user root;' : 'daemon off;');

/** The status of a GET over TLS, trusting `ca` (the stack's self-signed certificate). */
export function httpsStatus(url: string, ca: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = https.get(url, { ca, timeout: 2_000 }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.once('timeout', () => request.destroy(new Error('timed out')));
    request.once('error', reject);
  });
}
