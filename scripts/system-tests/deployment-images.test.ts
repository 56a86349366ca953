import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { API_PORT, APP_CONFIG_ENV, DEFAULT_APP_CONFIG, readAppConfig } from '@uis/proto';
import {
  SERVICE_NAMES,
  SERVICES_WITH_TABLES,
  along,
  effective,
  parseDockerfile,
  readRepoFile,
  repoFile,
  servicePort,
  stageChain,
  stageNamed,
  type Dockerfile,
  type Instruction,
} from './support/deployment-support';

/**
 * The Dockerfile, read as the builder reads it (there is no Docker engine here): a target per
 * service with production dependencies only, non-root users, health checks, the ports proto gives, and
 * a gateway target whose files sit where nginx.conf looks for them. The gateway's entrypoint is run for
 * real (with openssl, and a stand-in nginx or the real one's nginx -t): the folder it lays out in
 * /tmp, the certificate, and the web app's app-config.json from the environment.
 */

const dockerfile = parseDockerfile(readRepoFile('Dockerfile'));

const healthcheckCommand = (instruction: Instruction | undefined): string[] => {
  const args = instruction?.args ?? '';
  if (!args.startsWith('CMD ')) return [];
  return JSON.parse(args.slice(4)) as string[];
};
const baseImage = (dockerfile: Dockerfile, target: string) => stageChain(dockerfile, target).at(-1)!.from;
const runs = (dockerfile: Dockerfile, stage: string) =>
  stageNamed(dockerfile, stage)
    .instructions.filter((instruction) => instruction.keyword === 'RUN')
    .map((instruction) => instruction.args.replace(/\s+/g, ' '));

interface RootManifest {
  workspaces: string[];
}
const workspaces = (JSON.parse(readRepoFile('package.json')) as RootManifest).workspaces;

describe("the Dockerfile's services", () => {
  it('has a target per proto service and the gateway, nothing built without one', () => {
    const names = dockerfile.stages.map((stage) => stage.name);
    for (const name of SERVICE_NAMES) expect(names).toContain(name);
    expect(names.filter((name) => !(SERVICE_NAMES as string[]).includes(name))).toEqual([
      'manifests',
      'build',
      'prod-deps',
      'runtime',
      'web',
      'gateway',
    ]);
  });

  it('starts each service on its proto port, from its workspace, as its package.json does', () => {
    for (const name of SERVICE_NAMES) {
      const port = servicePort(name);
      const manifest = JSON.parse(readRepoFile('services', name, 'package.json')) as {
        scripts: Record<string, string>;
      };
      expect([name, effective(dockerfile, name, 'WORKDIR')?.args]).toEqual([name, `/app/services/${name}`]);
      expect([name, effective(dockerfile, name, 'ENV')?.args]).toEqual([name, `PORT=${port}`]);
      expect([name, effective(dockerfile, name, 'EXPOSE')?.args]).toEqual([name, String(port)]);
      expect([name, effective(dockerfile, name, 'CMD')?.exec?.join(' ')]).toEqual([
        name,
        manifest.scripts.start,
      ]);
    }
  });

  it('can run the migrate entry of every service with tables (the migration jobs)', () => {
    for (const name of SERVICES_WITH_TABLES) {
      const manifest = JSON.parse(readRepoFile('services', name, 'package.json')) as {
        scripts: Record<string, string>;
      };
      expect(manifest.scripts.migrate).toBe('node dist/src/migrate.js');
      expect(fs.existsSync(repoFile('services', name, 'src', 'migrate.ts'))).toBe(true);
      // dist/src is what the runtime stage copies.
      expect(along(dockerfile, name, 'COPY').map((copy) => copy.args)).toContain(
        `/app/services/${name}/dist/src services/${name}/dist/src`,
      );
    }
  });

  it('runs every target as a numeric non-root user with a health check on its /health', () => {
    for (const name of SERVICE_NAMES) {
      const user = effective(dockerfile, name, 'USER')?.args ?? 'root';
      expect([name, user]).toEqual([name, expect.stringMatching(/^[1-9]\d*:[1-9]\d*$/)]);
      const check = healthcheckCommand(effective(dockerfile, name, 'HEALTHCHECK'));
      expect([name, check.slice(0, 2)]).toEqual([name, ['node', '-e']]);
      expect(check[2]).toContain("'http://127.0.0.1:' + process.env.PORT + '/health'");
    }
  });

  it('is small: node 20 slim or alpine, production dependencies of the services only', () => {
    for (const name of SERVICE_NAMES) {
      expect(baseImage(dockerfile, name)).toMatch(/^node:20(\.\d+)*-(bookworm-slim|alpine)$/);
    }
    const prodDeps = runs(dockerfile, 'prod-deps').join('\n');
    expect(prodDeps).toMatch(/npm ci --omit=dev/);
    const installed = [...prodDeps.matchAll(/--workspace (\S+)/g)].map((match) => match[1]);
    expect(installed.sort()).toEqual(SERVICE_NAMES.map((name) => `services/${name}`).sort());
    // The runtime takes node_modules from prod-deps only, and nothing from build but compiled sources.
    const copies = stageNamed(dockerfile, 'runtime').instructions.filter(
      (instruction) => instruction.keyword === 'COPY',
    );
    for (const copy of copies) {
      if (copy.flags.from === 'prod-deps') expect(copy.args).toBe('/app ./');
      else
        expect([copy.flags.from, copy.args]).toEqual([
          'build',
          expect.stringMatching(/^\/app\/\S+\/dist\/src /),
        ]);
    }
  });

  it('builds what the services import: proto, kit, mailer and each service', () => {
    const build = runs(dockerfile, 'build').join('\n');
    expect(build).toMatch(/npm ci --include-workspace-root/);
    const compiled = /npx tsc -b (.*)/.exec(build)![1]!.split(' ');
    expect(compiled.sort()).toEqual(
      ['proto', 'services/kit', ...SERVICE_NAMES.map((name) => `services/${name}`)].sort(),
    );
  });
});

describe('the Dockerfile', () => {
  it("copies every workspace's manifest before npm ci (it checks them against the lockfile), once for every image", () => {
    const copied = stageNamed(dockerfile, 'manifests')
      .instructions.filter((instruction) => instruction.keyword === 'COPY')
      .map((instruction) => instruction.args.split(' ').slice(0, -1).join(' '))
      .filter((sources) => sources.includes('package'));
    expect(copied).toEqual([
      'package.json package-lock.json .npmrc',
      ...workspaces.map((workspace) => `${workspace}/package.json`),
    ]);
    for (const stage of dockerfile.stages.filter((stage) => stage.name !== 'manifests')) {
      const manifests = stage.instructions.filter(
        (instruction) => instruction.keyword === 'COPY' && /package(-lock)?\.json/.test(instruction.args),
      );
      expect([stage.name, manifests]).toEqual([stage.name, []]);
    }
    expect(['build', 'prod-deps', 'web'].map((name) => stageNamed(dockerfile, name).from)).toEqual([
      'manifests',
      'manifests',
      'manifests',
    ]);
  });

  it('send the builder nothing built, installed or secret (.dockerignore)', () => {
    const ignored = readRepoFile('.dockerignore')
      .split('\n')
      .filter((line) => line && !line.startsWith('#'));
    for (const entry of [
      '**/node_modules',
      '**/dist',
      '**/*.tsbuildinfo',
      '.data',
      '.git',
      '.env',
      'gateway/tls',
      'coverage',
      'web/e2e/output',
    ]) {
      expect(ignored).toContain(entry);
    }
    expect(ignored).toContain('!.env.example');
  });
});

describe("the Dockerfile's gateway", () => {
  const final = stageNamed(dockerfile, 'gateway');
  const finalAlong = (keyword: string) => effective(dockerfile, final.name, keyword);

  it('is nginx running as a non-root user, on the API port, with a health check over TLS', () => {
    expect(final.from).toMatch(/^nginx:1\.\d+(\.\d+)?-alpine$/);
    expect(finalAlong('USER')?.args).toMatch(/^[1-9]\d*:[1-9]\d*$/);
    expect(finalAlong('EXPOSE')?.args).toBe(String(API_PORT));
    expect(healthcheckCommand(finalAlong('HEALTHCHECK'))).toEqual(
      expect.arrayContaining(['curl', '--fail', `https://127.0.0.1:${API_PORT}/`]),
    );
    expect(finalAlong('ENTRYPOINT')?.exec).toEqual(['/usr/local/bin/uis-gateway-entrypoint']);
  });

  it('builds the web app with its own checks, and serves it from nginx.conf\'s "html"', () => {
    expect(runs(dockerfile, 'web').join('\n')).toMatch(/npx tsc -b proto && npm run build --workspace web/);
    const copies = final.instructions.filter((instruction) => instruction.keyword === 'COPY');
    expect(copies.find((copy) => copy.flags.from === 'web')?.args).toBe('/app/web/dist /etc/nginx/html');
    expect(readRepoFile('gateway', 'nginx.conf')).toMatch(/^\s*root html;/m);
  });

  it("puts every file nginx.conf includes beside it (mime.types is nginx's own)", () => {
    const copies = final.instructions.filter(
      (instruction) => instruction.keyword === 'COPY' && !instruction.flags.from,
    );
    expect(copies.map((copy) => copy.args)).toContain('gateway/*.conf /etc/nginx/');
    const included = new Set<string>();
    const visit = (file: string) => {
      for (const match of readRepoFile('gateway', file).matchAll(/^\s*include\s+([^;]+);/gm)) {
        const name = match[1]!.trim();
        if (included.has(name)) continue;
        included.add(name);
        if (name.endsWith('.conf')) visit(name);
      }
    };
    visit('nginx.conf');
    for (const name of included) {
      if (name === 'mime.types') continue;
      expect([name, fs.existsSync(repoFile('gateway', name))]).toEqual([name, name.endsWith('.conf')]);
    }
  });
});

describe("the gateway's entrypoint", () => {
  let dir: string;
  const entrypoint = repoFile('gateway', 'docker-entrypoint.sh');
  const runDir = () => path.join(dir, 'run');
  const appConfigVariables = Object.values(APP_CONFIG_ENV);

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'uis-gateway-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** The image's /etc/nginx, as the Dockerfile's gateway target fills it; upstreams on this machine for nginx -t. */
  const layOutConf = () => {
    const conf = path.join(dir, 'conf');
    fs.mkdirSync(path.join(conf, 'html', 'static'), { recursive: true });
    for (const file of fs.readdirSync(repoFile('gateway')).filter((name) => name.endsWith('.conf'))) {
      fs.copyFileSync(repoFile('gateway', file), path.join(conf, file));
    }
    const upstreams = fs.readFileSync(path.join(conf, 'upstreams.conf'), 'utf8');
    fs.writeFileSync(
      path.join(conf, 'upstreams.conf'),
      upstreams.replace(/server [a-z]+:/g, 'server 127.0.0.1:'),
    );
    fs.writeFileSync(path.join(conf, 'mime.types'), 'types { text/html html; }\n');
    fs.writeFileSync(path.join(conf, 'html', 'index.html'), '<!doctype html>\n');
    return conf;
  };
  const mountCertificate = (conf: string) => {
    fs.mkdirSync(path.join(conf, 'tls'));
    fs.writeFileSync(path.join(conf, 'tls', 'tls.crt'), 'certificate');
    fs.writeFileSync(path.join(conf, 'tls', 'tls.key'), 'key');
  };

  /**
   * Runs the entrypoint with `nginx` on the PATH: a stand-in recording its arguments, or the real one.
   * The web app's variables are those of `env` only (none of this machine's).
   */
  /** The entrypoint's environment: the web app's variables are those of `env` only (none of this machine's). */
  const entrypointEnv = (conf: string, path_: string | undefined, env: Record<string, string>) => ({
    ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !appConfigVariables.includes(name))),
    ...env,
    PATH: path_,
    UIS_GATEWAY_CONF_DIR: conf,
    UIS_GATEWAY_RUN_DIR: runDir(),
  });

  /** Runs the entrypoint with `nginx` on the PATH: a stand-in recording its arguments, or the real one. */
  const run = (
    conf: string,
    nginx: 'stand-in' | 'real',
    { args = [], env = {} }: { args?: string[]; env?: Record<string, string> } = {},
  ) => {
    const bin = path.join(dir, 'bin');
    fs.mkdirSync(bin, { recursive: true });
    if (nginx === 'stand-in') {
      fs.writeFileSync(
        path.join(bin, 'nginx'),
        `#!/bin/sh\necho "$@" > "${path.join(dir, 'nginx-args')}"\n`,
        {
          mode: 0o755,
        },
      );
    }
    // nginx opens /dev/stdout for its access log: a file, as under Docker (a socket would not do).
    const stdout = fs.openSync(path.join(dir, 'stdout'), 'w');
    const result = spawnSync('sh', [entrypoint, ...args], {
      encoding: 'utf8',
      stdio: ['ignore', stdout, 'pipe'],
      env: entrypointEnv(conf, nginx === 'stand-in' ? `${bin}:${process.env.PATH}` : process.env.PATH, env),
    });
    fs.closeSync(stdout);
    return result;
  };
  const nginxArgs = () => fs.readFileSync(path.join(dir, 'nginx-args'), 'utf8').trim();
  const servedAppConfig = () => fs.readFileSync(path.join(runDir(), 'html', 'app-config.json'), 'utf8');

  it('makes a self-signed certificate for localhost when none is mounted, and says it is for local use only', () => {
    const conf = layOutConf();
    const result = run(conf, 'stand-in');
    expect(result.status).toBe(0);
    expect(result.stderr).toMatch(/no certificate mounted/);
    expect(result.stderr).toMatch(/FOR LOCAL USE ONLY/);
    const subject = execFileSync(
      'openssl',
      ['x509', '-noout', '-subject', '-in', path.join(runDir(), 'tls', 'tls.crt')],
      { encoding: 'utf8' },
    );
    expect(subject).toMatch(/CN\s*=\s*localhost/);
    expect(fs.readlinkSync(path.join(runDir(), 'nginx.conf'))).toBe(path.join(conf, 'nginx.conf'));
    expect(nginxArgs()).toBe(`-p ${runDir()}/ -c ${runDir()}/nginx.conf -e stderr -g daemon off;`);
  });

  it('serves the mounted certificate as it is, from the same folder in /tmp', () => {
    const conf = layOutConf();
    mountCertificate(conf);
    const result = run(conf, 'stand-in', { args: ['-t'] });
    expect(result.status).toBe(0);
    expect(result.stderr).toBe('');
    expect(fs.readlinkSync(path.join(runDir(), 'tls'))).toBe(path.join(conf, 'tls'));
    expect(fs.readFileSync(path.join(runDir(), 'tls', 'tls.crt'), 'utf8')).toBe('certificate');
    expect(nginxArgs()).toBe(`-p ${runDir()}/ -c ${runDir()}/nginx.conf -e stderr -g daemon off; -t`);
  });

  it('refuses half a certificate rather than serve another one', () => {
    const conf = layOutConf();
    fs.mkdirSync(path.join(conf, 'tls'));
    fs.writeFileSync(path.join(conf, 'tls', 'tls.crt'), 'certificate');
    const result = run(conf, 'stand-in');
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/holds only one of tls\.crt and tls\.key/);
    expect(fs.existsSync(path.join(dir, 'nginx-args'))).toBe(false);
  });

  it("serves the web app's files and an app-config.json written from the environment", () => {
    const conf = layOutConf();
    // A stale file in the image (or the web build) gives way to this start's.
    fs.writeFileSync(path.join(conf, 'html', 'app-config.json'), '{"apiUrl":"https://stale.example"}');
    const env = {
      WEB_API_URL: 'https://api.uis.example.edu',
      WEB_REALTIME_URL: 'https://live.uis.example.edu:9443',
      WEB_SIGNAL_URL: 'http://localhost:9001/',
      GOOGLE_CLIENT_ID: '1234-abc.apps.googleusercontent.com',
    };
    // The entrypoint's variables are proto's, field for field.
    expect(Object.keys(env).sort()).toEqual([...appConfigVariables].sort());
    for (const certificate of ['self-signed', 'mounted']) {
      if (certificate === 'mounted') mountCertificate(conf);
      expect([certificate, run(conf, 'stand-in', { env }).status]).toEqual([certificate, 0]);
      const html = path.join(runDir(), 'html');
      expect(fs.readdirSync(html).sort()).toEqual(['app-config.json', 'index.html', 'static']);
      expect(fs.readlinkSync(path.join(html, 'index.html'))).toBe(path.join(conf, 'html', 'index.html'));
      expect(fs.readlinkSync(path.join(html, 'static'))).toBe(path.join(conf, 'html', 'static'));
      expect(fs.lstatSync(path.join(html, 'app-config.json')).isFile()).toBe(true);
      const served = JSON.parse(servedAppConfig()) as unknown;
      expect(served).toEqual(
        Object.fromEntries(
          Object.entries(APP_CONFIG_ENV).map(([field, variable]) => [
            field,
            env[variable as keyof typeof env],
          ]),
        ),
      );
      expect(readAppConfig(served).problems).toEqual([]);
    }
    // The image's own folder is left as it was.
    expect(fs.readFileSync(path.join(conf, 'html', 'app-config.json'), 'utf8')).toMatch(/stale/);
  });

  it('writes every setting empty when none is set (or set empty): the app on its own origin, no Google sign-in', () => {
    const conf = layOutConf();
    for (const env of [{}, Object.fromEntries(appConfigVariables.map((name) => [name, '']))]) {
      expect(run(conf, 'stand-in', { env }).status).toBe(0);
      // As `npm run stack` writes it (JSON.stringify of proto's defaults).
      expect(servedAppConfig()).toBe(`${JSON.stringify(DEFAULT_APP_CONFIG)}\n`);
    }
  });

  it('stops the start, naming the variable, on a value that would not make valid JSON or is no URL', () => {
    const conf = layOutConf();
    const unsafe = [
      'https://x.example/"',
      'https://x.example/\\',
      'https://x.example/\nb',
      'id\twith-tab',
      'a\u007f',
    ];
    for (const variable of appConfigVariables) {
      for (const value of unsafe) {
        const result = run(conf, 'stand-in', { env: { [variable]: value } });
        expect([variable, value, result.status]).toEqual([variable, value, 1]);
        expect(result.stderr).toBe(
          `gateway: ${variable} holds a double quote, backslash or control character (a newline, a tab...): set it to a plain URL or client id.\n`,
        );
      }
    }
    for (const variable of appConfigVariables.filter((name) => name !== 'GOOGLE_CLIENT_ID')) {
      const result = run(conf, 'stand-in', { env: { [variable]: 'api.uis.example.edu' } });
      expect([variable, result.status]).toEqual([variable, 1]);
      expect(result.stderr).toMatch(new RegExp(`^gateway: ${variable} is not an http:// or https:// URL`));
    }
    // Refused before anything is laid out or started.
    expect(fs.existsSync(runDir())).toBe(false);
    expect(fs.existsSync(path.join(dir, 'nginx-args'))).toBe(false);
  });

  it('has nginx serve the app and its app-config.json through the folder it lays out (real nginx)', async () => {
    const conf = layOutConf();
    // As the image does, but on a free loopback port, with pid and temporary files in this test's
    // folder; readable by nginx's workers, which are `nobody` when the tests run as root.
    fs.chmodSync(dir, 0o755);
    const port = await freePort();
    const nginxConf = path.join(conf, 'nginx.conf');
    const original = fs.readFileSync(nginxConf, 'utf8');
    const moved = original
      .replace(`listen ${API_PORT} ssl`, `listen 127.0.0.1:${port} ssl`)
      .replaceAll('/tmp/uis-gateway', path.join(dir, 'uis-gateway'));
    expect(moved).not.toBe(original);
    fs.writeFileSync(nginxConf, moved);
    const env = {
      WEB_API_URL: 'https://api.uis.example.edu',
      GOOGLE_CLIENT_ID: '1234-abc.apps.googleusercontent.com',
    };
    const stdout = fs.openSync(path.join(dir, 'stdout'), 'w');
    const gateway = spawn('sh', [entrypoint], {
      stdio: ['ignore', stdout, 'pipe'],
      env: entrypointEnv(conf, process.env.PATH, env),
    });
    fs.closeSync(stdout);
    let stderr = '';
    gateway.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise((resolve) => gateway.once('exit', resolve));
    try {
      const get = (pathname: string, accept: string) =>
        httpsGet(`https://127.0.0.1:${port}${pathname}`, path.join(runDir(), 'tls', 'tls.crt'), accept);
      let config: Awaited<ReturnType<typeof get>> | undefined;
      for (let attempt = 0; !config; attempt++) {
        try {
          config = await get('/app-config.json', 'application/json');
        } catch (error) {
          if (attempt > 100 || gateway.exitCode !== null) throw new Error(`${String(error)}\n${stderr}`);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      }
      expect(config.status).toBe(200);
      expect(config.headers['cache-control']).toBe('no-store');
      expect(JSON.parse(config.body)).toEqual({
        ...DEFAULT_APP_CONFIG,
        apiUrl: env.WEB_API_URL,
        googleClientId: env.GOOGLE_CLIENT_ID,
      });
      const page = await get('/', 'text/html');
      expect([page.status, page.body]).toEqual([200, '<!doctype html>\n']);
    } finally {
      gateway.kill('SIGTERM');
      await exited;
    }
  });

  // nginx is installed by .ci/run (Debian's 1.22, as the image's is 1.2x): a missing one fails here.
  it('gives nginx a configuration it accepts, in the layout of the image (nginx -t)', () => {
    const result = run(layOutConf(), 'real', {
      args: ['-t'],
      env: { WEB_API_URL: 'https://api.uis.example.edu' },
    });
    expect(result.stderr).toMatch(/test is successful/);
    expect(result.status).toBe(0);
  });
});

/** A port nothing listens on now, on loopback. */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A GET over TLS trusting only `caFile` (the gateway's self-signed certificate names 127.0.0.1). */
function httpsGet(
  url: string,
  caFile: string,
  accept: string,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const request = https.get(
      url,
      { ca: fs.readFileSync(caFile), headers: { accept }, timeout: 2_000 },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body }),
        );
      },
    );
    request.once('timeout', () => request.destroy(new Error('timed out')));
    request.once('error', reject);
  });
}
