import type { INestApplication } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import { NEST_APP_OPTIONS, prepareServiceApp, type ServiceDefinition } from '../service-app';

/**
 * A service's app exactly as createApp builds it, except for the providers a test replaces
 * (e.g. the list of sibling services asked to delete data, when those siblings are not running).
 */
export async function createAppWithOverrides(
  definition: ServiceDefinition,
  env: NodeJS.ProcessEnv,
  overrides: ReadonlyArray<readonly [token: symbol | string, value: unknown]>,
): Promise<INestApplication> {
  const { root, options } = definition.compose(env);
  let builder = Test.createTestingModule({ imports: [root] });
  for (const [token, value] of overrides) builder = builder.overrideProvider(token).useValue(value);
  const moduleRef = await builder.compile();
  // The same options as createApp (Nest's own body parser off), so the app differs only in the overrides.
  return prepareServiceApp(
    moduleRef.createNestApplication<NestExpressApplication>(NEST_APP_OPTIONS),
    options,
  );
}
