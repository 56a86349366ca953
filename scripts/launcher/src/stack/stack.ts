import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { startSmtpSink, type SmtpSink } from '@uis/mailer/testing';
import { API_PORT, SERVICES, appConfigFromEnv, type AppConfig, type ServiceName } from '@uis/proto';
import { repoRoot, loadOrCreateSecrets } from '../data-dir';
import { DEFAULT_S3_BUCKET, startEmbeddedS3 } from '../embedded-s3';
import { Lifecycle } from '../lifecycle';
import { assertPortsFree, portFromEnv, type PortClaim } from '../ports';
import { httpProbe, runToEnd, startChild, waitUntilReady, type Child, type LineSink } from './child-process';
import { ensureDatabase } from './database';
import { startGateway } from './gateway-process';
import { ensureSelfSignedCertificate } from './self-signed-certificate';
import { startStackTurn } from './turn-process';

/**
 * `npm run stack`: the distributed design on one machine (ARCHITECTURE "Runtime modes" 2). Every
 * service is its own process started from its built main, realtime twice on Redis, the mail worker,
 * and nginx in front on TLS, with the gateway config deployments use. Postgres and Redis are the
 * machine's own; the S3 server and an SMTP catcher run inside this process unless S3_ENDPOINT or
 * SMTP_URL name real ones.
 */

/** The services the stack runs, in start order; realtime runs once per replica port. */
const STACK_SERVICES = ['mailer', 'auth', 'studies', 'content', 'records', 'realtime', 'signal'] as const;
const SERVICES_WITH_MIGRATIONS = ['auth', 'studies', 'content', 'records'] as const;
/** The second realtime replica's default port (the first keeps the spec's 9000). */
const SECOND_REALTIME_PORT = 9010;
const READY_WITHIN_MS = 60_000;
/** coturn's port when the stack starts it (TURN_PORT): the standard STUN/TURN port. */
const DEFAULT_TURN_PORT = 3478;

export interface StackOptions {
  /** Where the stack keeps its certificate, secrets, objects and nginx run folder. */
  dataDir: string;
  gatewayPort: number;
  /** Each service's port; realtime's are the replicas'. */
  ports: Record<Exclude<ServiceName, 'realtime'>, number> & { realtime: readonly number[] };
  databaseUrl: string;
  redisUrl: string;
  /** Variables passed to every service (S3_*, SMTP_URL, LOG_FORMAT, ALLOWED_ORIGINS...) over the stack's own. */
  env: Record<string, string>;
  /**
   * The calls' TURN server: Debian's coturn on 127.0.0.1 at this port when it is installed and
   * `env` names no TURN server (TURN_URLS); unset: none.
   */
  turnPort?: number;
  /** The web app's run-time settings the gateway serves. */
  appConfig: AppConfig;
  sink: LineSink;
  /** Progress lines ("migrating auth", "ready"). */
  log: (message: string) => void;
}

export interface Stack {
  /** The gateway: https://localhost:<port>. */
  url: string;
  /** The stack's certificate, for clients that check it. */
  ca: Buffer;
  /** The SMTP catcher, unless SMTP_URL named a real relay. */
  mail?: SmtpSink;
  /** Each service's own address (loopback, not through the gateway), realtime's per replica. */
  serviceUrls: Record<Exclude<ServiceName, 'realtime'>, string> & { realtime: string[] };
  /** Processes that ended while the stack ran: settles with the first (label and exit code). */
  failed: Promise<string>;
  /** Its processes (services by label, realtime-1 and realtime-2, the gateway's nginx master). */
  processes: readonly { label: string; pid: number }[];
  stop(): Promise<void>;
}

/** The defaults `npm run stack` uses: the spec's ports, the machine's Postgres and Redis, .data/stack. */
export function defaultStackOptions(
  env: NodeJS.ProcessEnv,
  sink: LineSink,
  log: (m: string) => void,
): StackOptions {
  const port = (name: string, fallback: number) => portFromEnv(name, fallback, env);
  const webSettings = appConfigFromEnv(env);
  for (const problem of webSettings.problems) log(`Ignoring a web app setting: ${problem}`);
  return {
    dataDir: path.join(path.resolve(env.UIS_DATA_DIR ?? path.join(repoRoot(), '.data')), 'stack'),
    gatewayPort: port('GATEWAY_PORT', API_PORT),
    ports: {
      auth: port('AUTH_PORT', SERVICES.auth.port),
      studies: port('STUDIES_PORT', SERVICES.studies.port),
      content: port('CONTENT_PORT', SERVICES.content.port),
      records: port('RECORDS_PORT', SERVICES.records.port),
      mailer: port('MAILER_PORT', SERVICES.mailer.port),
      signal: port('SIGNAL_PORT', SERVICES.signal.port),
      realtime: (env.REALTIME_PORTS || `${SERVICES.realtime.port},${SECOND_REALTIME_PORT}`)
        .split(',')
        .map((value) => portFromEnv('REALTIME_PORTS', 0, { REALTIME_PORTS: value.trim() })),
    },
    turnPort: port('TURN_PORT', DEFAULT_TURN_PORT),
    databaseUrl: env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/uis_stack',
    redisUrl: env.REDIS_URL || 'redis://127.0.0.1:6379',
    env: Object.fromEntries(
      Object.entries(env).filter(
        (entry): entry is [string, string] =>
          entry[1] !== undefined &&
          (/^(S3_|SMTP_|MAIL_|LOG_|RESEARCHER_|TURN_|ICE_)/.test(entry[0]) || entry[0] === 'ALLOWED_ORIGINS'),
      ),
    ),
    appConfig: webSettings.config,
    sink,
    log,
  };
}

const loopback = (port: number) => `http://127.0.0.1:${port}`;

export async function startStack(options: StackOptions, lifecycle: Lifecycle): Promise<Stack> {
  const { ports, log } = options;
  const claims: PortClaim[] = [
    { port: options.gatewayPort, envName: 'GATEWAY_PORT', host: '127.0.0.1' },
    ...STACK_SERVICES.flatMap((name) =>
      (name === 'realtime' ? ports.realtime : [ports[name]]).map((port) => ({
        port,
        envName: name === 'realtime' ? 'REALTIME_PORTS' : `${name.toUpperCase()}_PORT`,
        host: '127.0.0.1',
        usualHolder: 'is `npm start` or another `npm run stack` running?',
      })),
    ),
  ];
  await assertPortsFree(claims);

  fs.mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
  const secrets = loadOrCreateSecrets(path.join(options.dataDir, 'secrets.json'));
  const tls = ensureSelfSignedCertificate(path.join(options.dataDir, 'tls'));
  await ensureDatabase(options.databaseUrl, log);
  lifecycle.throwIfStopRequested();

  const env: Record<string, string> = { ...options.env };
  if (!env.S3_ENDPOINT) {
    const s3 = await startEmbeddedS3({
      directory: path.join(options.dataDir, 's3'),
      port: await anyFreePort(),
      bucket: env.S3_BUCKET || DEFAULT_S3_BUCKET,
      accessKey: secrets.S3_ACCESS_KEY,
      secretKey: secrets.S3_SECRET_KEY,
    });
    lifecycle.onStop('the S3 server', () => s3.stop());
    Object.assign(env, s3.env);
  }
  let mail: SmtpSink | undefined;
  if (!env.SMTP_URL) {
    const sink = await startSmtpSink();
    lifecycle.onStop('the SMTP catcher', () => sink.close());
    sink.onMail((message) => {
      const links = (message.text ?? '').match(/https?:\/\/\S+/g) ?? [];
      log(
        `mail to ${
          message.to
            ? [message.to]
                .flat()
                .map((to) => to.text)
                .join(', ')
            : '?'
        }: ${message.subject ?? ''}`,
      );
      for (const link of links) log(`  ${link}`);
    });
    env.SMTP_URL = sink.url;
    mail = sink;
  }

  if (options.turnPort !== undefined && !env.TURN_URLS) {
    const turn = await startStackTurn(
      { dataDir: options.dataDir, port: options.turnPort, sink: options.sink, log },
      lifecycle,
    );
    if (turn) Object.assign(env, turn.env);
    lifecycle.throwIfStopRequested();
  }

  const url = `https://localhost:${options.gatewayPort}`;
  const serviceUrls = {
    auth: loopback(ports.auth),
    studies: loopback(ports.studies),
    content: loopback(ports.content),
    records: loopback(ports.records),
    mailer: loopback(ports.mailer),
    signal: loopback(ports.signal),
    realtime: ports.realtime.map(loopback),
  };
  const shared: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    NODE_ENV: process.env.NODE_ENV,
    JWT_SECRET: secrets.JWT_SECRET,
    SERVICE_TOKEN: secrets.SERVICE_TOKEN,
    DATABASE_URL: options.databaseUrl,
    REDIS_URL: options.redisUrl,
    PUBLIC_URL: url,
    MAIL_FROM: 'User Interaction Simulator <no-reply@localhost>',
    // nginx on loopback is the one proxy whose X-Forwarded-For the services believe.
    TRUST_PROXY: 'loopback',
    // Migrations ran before the services (below), as compose and Kubernetes run them.
    MIGRATE_ON_START: 'false',
    RESEARCHER_EMAILS: '*',
    LOG_FORMAT: 'pretty',
    HOST: '127.0.0.1',
    AUTH_URL: serviceUrls.auth,
    STUDIES_URL: serviceUrls.studies,
    CONTENT_URL: serviceUrls.content,
    RECORDS_URL: serviceUrls.records,
    MAILER_URL: serviceUrls.mailer,
    SIGNAL_URL: serviceUrls.signal,
    // One replica is told of access changes; it tells the others over Redis.
    REALTIME_URL: serviceUrls.realtime[0],
    ...env,
  };
  const entry = (service: ServiceName, file: string) =>
    path.join(repoRoot(), 'services', service, 'dist', 'src', file);

  for (const service of SERVICES_WITH_MIGRATIONS) {
    log(`migrating ${service}`);
    await runToEnd({
      label: `${service} migrate`,
      command: process.execPath,
      args: [entry(service, 'migrate.js')],
      env: shared,
      sink: options.sink,
    });
    lifecycle.throwIfStopRequested();
  }

  const children: Child[] = [];
  const started: { child: Child; ready: string }[] = [];
  for (const service of STACK_SERVICES) {
    const servicePorts = service === 'realtime' ? ports.realtime : [ports[service]];
    servicePorts.forEach((port, index) => {
      const label = servicePorts.length > 1 ? `${service}-${index + 1}` : service;
      const child = startChild({
        label,
        command: process.execPath,
        args: [entry(service, 'main.js')],
        env: { ...shared, PORT: String(port) },
        sink: options.sink,
      });
      children.push(child);
      started.push({ child, ready: `${loopback(port)}/ready` });
    });
  }
  lifecycle.onStop(
    'the services',
    () => Promise.all(children.map((child) => child.stop())).then(() => undefined),
    15_000,
  );
  log(`starting ${children.map((child) => child.label).join(', ')}`);
  await Promise.all(
    started.map(({ child, ready }) => waitUntilReady(child, httpProbe(ready), READY_WITHIN_MS, lifecycle)),
  );
  lifecycle.throwIfStopRequested();

  const webDist = path.join(repoRoot(), 'web', 'dist');
  const gateway = await startGateway(
    {
      runDir: path.join(options.dataDir, 'gateway'),
      port: options.gatewayPort,
      tls,
      webDist: fs.existsSync(path.join(webDist, 'index.html')) ? webDist : undefined,
      upstreams: {
        auth: [`127.0.0.1:${ports.auth}`],
        studies: [`127.0.0.1:${ports.studies}`],
        content: [`127.0.0.1:${ports.content}`],
        records: [`127.0.0.1:${ports.records}`],
        signal: [`127.0.0.1:${ports.signal}`],
        realtime: ports.realtime.map((port) => `127.0.0.1:${port}`),
      },
      appConfig: options.appConfig,
    },
    options.sink,
    lifecycle,
  );
  children.push(gateway);
  lifecycle.onStop('the gateway', () => gateway.stop());

  const failed = Promise.race(
    children.map((child) => child.exited.then((code) => `${child.label} exited (${code})`)),
  );
  return {
    url,
    ca: fs.readFileSync(tls.certificate),
    mail,
    serviceUrls,
    failed,
    processes: children.map(({ label, pid }) => ({ label, pid })),
    stop: () => lifecycle.stopAll(),
  };
}

/** A port nothing listens on now, for the stack's inner servers (S3): no one needs to know it. */
async function anyFreePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', resolve);
  });
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
