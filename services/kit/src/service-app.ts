import {
  Module,
  type DynamicModule,
  type INestApplication,
  type ModuleMetadata,
  type NestApplicationOptions,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { SERVICES, type ServiceName } from '@uis/proto';
import { z } from 'zod';
import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import { badRequest } from './errors';
import { ConfigError, commonEnv, envVars, loadConfig, serviceUrl, serviceUrlsEnv } from './config';
import { allowedOriginsEnv } from './auth/browser-origins';
import { answerClientErrors } from './http/client-errors';
import { AppExceptionFilter, NOT_JSON_TEXT } from './http/exception.filter';
import { EnvelopeInterceptor } from './http/envelope.interceptor';
import { requestLogger } from './http/request-logger';
import { KitModule } from './kit.module';
import { createLogger, type Logger } from './logger';
import { Metrics } from './metrics/metrics';

/** How the embedded start and a service's own main.ts build a service: one code path for both. */
export interface ServiceDefinition {
  name: ServiceName;
  /** Validates `env` (throws ConfigError), builds the app and runs migrations; does not listen. */
  createApp(env?: NodeJS.ProcessEnv): Promise<INestApplication>;
  /**
   * The parts createApp assembles, for a test that must swap a provider before the app is built
   * (`Test.createTestingModule({imports: [root]})`, then `prepareServiceApp`).
   */
  compose(env?: NodeJS.ProcessEnv): ComposedService;
}

export interface ComposedService {
  root: DynamicModule;
  options: ServiceAppOptions;
}

export interface ServiceAppOptions {
  logger: Logger;
  metrics: Metrics;
  trustProxy: string;
  /**
   * Web app origins other than the API's own that may call it (ALLOWED_ORIGINS): when the app's
   * run-time config names an API on another host. None by default: same origin only.
   */
  corsOrigins?: readonly string[];
  /** The service's own wiring of the app before init (socket.io adapter, PeerJS mount). */
  configure?: (app: NestExpressApplication) => void | Promise<void>;
}

/** The variables every service reads: logging, URLs, and the two shared secrets. */
export const serviceEnv = commonEnv
  .merge(serviceUrlsEnv)
  .extend({
    JWT_SECRET: envVars.secret(),
    SERVICE_TOKEN: envVars.secret(),
    /** Shared by every process of a deployment: revocations, and each service's own uses of it. */
    REDIS_URL: envVars.redisUrl(),
  })
  .merge(allowedOriginsEnv);
export type ServiceConfig = z.output<typeof serviceEnv>;

export interface ServiceSpec<C extends ServiceConfig> {
  name: ServiceName;
  /** The service's env schema, an extension of `serviceEnv`. */
  env: z.ZodType<C>;
  /** The service's own modules, built from its validated config. */
  imports: (config: C, logger: Logger) => NonNullable<ModuleMetadata['imports']>;
  /**
   * Wiring that needs the app itself, run before init on every path (standalone, embedded, tests):
   * a WebSocket adapter, a server mounted on the app's HTTP server.
   */
  configure?: (app: NestExpressApplication, config: C, logger: Logger) => void | Promise<void>;
}

/** The root every service app is built on (each Nest app has its own container, so one class serves all). */
@Module({})
class ServiceRootModule {}

/** Declares a service: validated env, the kit's shared providers, and the service's own modules. */
export function defineService<C extends ServiceConfig>(spec: ServiceSpec<C>): ServiceDefinition {
  const compose = (env: NodeJS.ProcessEnv = process.env): ComposedService => {
    const config = loadConfig(spec.env, env);
    const logger = createLogger({ service: spec.name, level: config.LOG_LEVEL, format: config.LOG_FORMAT });
    const metrics = new Metrics(spec.name);
    const root: DynamicModule = {
      module: ServiceRootModule,
      imports: [
        KitModule.forRoot({
          service: spec.name,
          logger,
          jwtSecret: config.JWT_SECRET,
          serviceToken: config.SERVICE_TOKEN,
          urlOf: (service) => serviceUrl(config, service),
          redisUrl: config.REDIS_URL,
          metrics,
        }),
        ...spec.imports(config, logger),
      ],
    };
    const { configure } = spec;
    return {
      root,
      options: {
        logger,
        metrics,
        trustProxy: config.TRUST_PROXY,
        corsOrigins: config.ALLOWED_ORIGINS,
        configure: configure && ((app) => configure(app, config, logger)),
      },
    };
  };
  return {
    name: spec.name,
    compose,
    async createApp(env) {
      const { root, options } = compose(env);
      return createServiceApp(root, options);
    },
  };
}

const noStore: RequestHandler = (_req, res, next) => {
  res.setHeader('Cache-Control', 'no-store');
  next();
};

/** A body that is not JSON is the caller's mistake, said plainly (other parser errors pass on). */
const explainParseErrors: ErrorRequestHandler = (error: { type?: string }, _req, _res, next) =>
  next(error?.type === 'entity.parse.failed' ? badRequest(NOT_JSON_TEXT) : error);

const trustProxyValue = (value: string): boolean | number | string =>
  value === 'true' ? true : value === 'false' ? false : /^\d+$/.test(value) ? Number(value) : value;

/** How every service's Nest app is created, by createServiceApp and by tests that override providers. */
export const NEST_APP_OPTIONS: NestApplicationOptions = {
  logger: false,
  abortOnError: false,
  // Our own parsers (prepareServiceApp): Nest would rewrap a JSON syntax error as its own 400.
  bodyParser: false,
};

/** A Nest app with the kit's envelope, error filter, request logs and proxy settings. */
export async function createServiceApp(
  module: DynamicModule,
  options: ServiceAppOptions,
): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(module, NEST_APP_OPTIONS);
  return prepareServiceApp(app, options);
}

/** The kit's plumbing on a created app, then init (migrations run here). */
export async function prepareServiceApp(
  app: NestExpressApplication,
  options: ServiceAppOptions,
): Promise<NestExpressApplication> {
  app.disable('x-powered-by');
  app.set('trust proxy', trustProxyValue(options.trustProxy));
  answerClientErrors(app.getHttpServer());
  app.use(requestLogger(options.logger));
  app.use(options.metrics.httpMiddleware());
  if (options.corsOrigins) {
    app.enableCors({
      origin: [...options.corsOrigins],
      credentials: true,
      exposedHeaders: ['X-Request-Id'],
      maxAge: 600,
    });
  }
  // API answers are one person's data (tokens among them): no cache keeps them. Routes that serve
  // files set their own caching (the video assets revalidate with their ETag).
  app.use(noStore);
  // JSON only: no urlencoded parser, so a form posted from another site is never read as input.
  app.use(express.json(), explainParseErrors);
  app.useGlobalFilters(new AppExceptionFilter(options.logger));
  app.useGlobalInterceptors(new EnvelopeInterceptor());
  await options.configure?.(app);
  await app.init();
  return app;
}

const listenEnv = (name: ServiceName) =>
  z.object({ PORT: envVars.port(SERVICES[name].port), HOST: z.string().default('0.0.0.0') });

/** A service's main.ts: fail fast on bad config, listen, stop cleanly on SIGTERM/SIGINT. */
export async function runStandalone(definition: ServiceDefinition): Promise<void> {
  let app: INestApplication;
  try {
    const { PORT, HOST } = loadConfig(listenEnv(definition.name));
    app = await definition.createApp(process.env);
    app.enableShutdownHooks();
    await app.listen(PORT, HOST);
    console.log(`${definition.name} listening on http://${HOST}:${PORT}`);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`${definition.name}: ${error.message}`);
    } else {
      console.error(`${definition.name} failed to start:`, error);
    }
    process.exit(1);
  }
}
