import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { answerClientErrors } from '@uis/kit';
import { API_PORT, SERVICES, appConfigFromEnv, type ServiceName } from '@uis/proto';
import { createApiDispatcher, forwardUpgrades, ownServerPathOf } from './api-dispatch';
import { banner } from './banner';
import { COMPOSED_SERVICES, OWN_PORTS } from './composition';
import { claimDataDir, dataDir, dataPaths, loadOrCreateSecrets, repoRoot } from './data-dir';
import { DEFAULT_EMBEDDED_PG_PORT, EMBEDDED_DATABASE, startEmbeddedPostgres } from './embedded-postgres';
import { DEFAULT_EMBEDDED_S3_PORT, DEFAULT_S3_BUCKET, startEmbeddedS3 } from './embedded-s3';
import type { Lifecycle } from './lifecycle';
import { assertPortsFree, closeServer, listenOn, portError, portFromEnv, type PortClaim } from './ports';
import { applyDefaults, embeddedEnvDefaults } from './service-env';
import { runCommand } from './run-command';

/**
 * `npm start`: the embedded mode (ARCHITECTURE "Runtime modes" 1). Every service in one process,
 * with an embedded Postgres and S3 unless DATABASE_URL / S3_ENDPOINT point elsewhere.
 */

const FORCE_EXIT_AFTER_MS = 20_000;

const log = (message: string) => console.log(`[start] ${message}`);

async function start(lifecycle: Lifecycle): Promise<void> {
  const env = process.env;
  const host = env.HOST || undefined;
  const apiClaim: PortClaim = { port: portFromEnv('API_PORT', API_PORT), envName: 'API_PORT', host };
  const listeners = COMPOSED_SERVICES.flatMap(({ name }) => {
    const own = OWN_PORTS[name];
    if (!own) return [];
    const claim: PortClaim = { ...own, port: portFromEnv(own.envName, SERVICES[name].port), host };
    return [{ service: name, claim }];
  });
  await assertPortsFree([apiClaim, ...listeners.map(({ claim }) => claim)]);

  const paths = dataPaths(dataDir());
  const lock = claimDataDir(paths.lock);
  lifecycle.onStop('the data directory lock', () => lock.release());
  const secrets = loadOrCreateSecrets(paths.secrets);

  let embeddedPostgres: { dir: string; port: number } | undefined;
  if (!env.DATABASE_URL) {
    const port = portFromEnv('EMBEDDED_PG_PORT', DEFAULT_EMBEDDED_PG_PORT);
    const postgres = await startEmbeddedPostgres({
      clusterDir: paths.postgres,
      port,
      password: secrets.POSTGRES_PASSWORD,
      database: EMBEDDED_DATABASE,
      log,
    });
    lifecycle.onStop('Postgres', () => postgres.stop(), 15_000);
    env.DATABASE_URL = postgres.url;
    embeddedPostgres = { dir: paths.postgres, port };
  }
  lifecycle.throwIfStopRequested();

  let embeddedS3: { dir: string; port: number; bucket: string } | undefined;
  if (!env.S3_ENDPOINT) {
    const port = portFromEnv('EMBEDDED_S3_PORT', DEFAULT_EMBEDDED_S3_PORT);
    const bucket = env.S3_BUCKET || DEFAULT_S3_BUCKET;
    const s3 = await startEmbeddedS3({
      directory: paths.s3,
      port,
      bucket,
      accessKey: secrets.S3_ACCESS_KEY,
      secretKey: secrets.S3_SECRET_KEY,
    });
    lifecycle.onStop('the S3 server', () => s3.stop());
    Object.assign(env, s3.env);
    embeddedS3 = { dir: paths.s3, port, bucket };
  }
  lifecycle.throwIfStopRequested();

  applyDefaults(env, embeddedEnvDefaults({ apiPort: apiClaim.port, secrets, outboxDir: paths.outbox }));

  const apps = new Map<ServiceName, INestApplication>();
  for (const definition of COMPOSED_SERVICES) {
    const app = await definition.createApp(env);
    lifecycle.onStop(`the ${definition.name} service`, () => app.close());
    apps.set(definition.name, app);
    lifecycle.throwIfStopRequested();
  }

  for (const { service, claim } of listeners) {
    const app = apps.get(service)!;
    await (claim.host ? app.listen(claim.port, claim.host) : app.listen(claim.port)).catch(
      (error: NodeJS.ErrnoException) => {
        throw portError(claim, error);
      },
    );
  }

  const webDist = path.join(repoRoot(), 'web', 'dist');
  const webBuilt = fs.existsSync(path.join(webDist, 'index.html'));
  const webSettings = appConfigFromEnv(env);
  for (const problem of webSettings.problems) log(`Ignoring a web app setting: ${problem}`);
  const server = http.createServer(
    createApiDispatcher({
      apps,
      webDist: webBuilt ? webDist : undefined,
      tls: (env.PUBLIC_URL ?? '').startsWith('https:'),
      appConfig: webSettings.config,
    }),
  );
  forwardUpgrades(server, apps);
  answerClientErrors(server);
  await listenOn(server, apiClaim);
  lifecycle.onStop('the API server', () => closeServer(server));
  lifecycle.throwIfStopRequested();

  console.log(
    banner({
      publicUrl: env.PUBLIC_URL ?? `http://localhost:${apiClaim.port}`,
      webBuilt,
      ownPorts: listeners.map(({ service, claim }) => ({
        service,
        port: claim.port,
        path: ownServerPathOf(service),
      })),
      embeddedPostgres,
      embeddedS3,
      redis: Boolean(env.REDIS_URL),
      smtp: Boolean(env.SMTP_URL),
      outboxDir: paths.outbox,
      researcherEmails: env.RESEARCHER_EMAILS ?? '',
    }),
  );
}

// Everything the embedded mode writes (outbox mails, objects, secrets, the database) is the person's
// own: readable by their account only (runCommand's umask).
void runCommand({
  tag: 'start',
  command: 'npm start',
  forceExitAfterMs: FORCE_EXIT_AFTER_MS,
  forcedExitNote: 'Postgres is told to stop on its own',
  run: async (lifecycle) => {
    await start(lifecycle);
    await lifecycle.stopRequested;
    return undefined;
  },
});
