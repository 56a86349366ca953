import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { APP_CONFIG_ENV, VIDEO_UPLOAD_MAX_BYTES, type ServiceName } from '@uis/proto';
import { PEER_RESTRICTIONS } from '@uis/signal';
import {
  SERVICE_NAMES,
  SERVICES_WITH_TABLES,
  devDependency,
  devDependencyPath,
  interpolateAll,
  isObject,
  parseDockerfile,
  parseEnvFile,
  parseYaml,
  parseYamlDocuments,
  readRepoFile,
  readersByVariable,
  repoFile,
  servicePort,
  effective,
  type JsonObject,
} from './support/deployment-support';

/**
 * k8s/ rendered offline by `kubectl kustomize`, every object checked against Kubernetes' schemas
 * (kubernetes-models), and what the deployment needs of it: probes, limits, locked-down pods,
 * migrations before each service, the Ingress to the gateway, realtime's autoscaling, network
 * policies; and the same images, ports and variables as docker-compose.yml.
 */

interface K8sObject extends JsonObject {
  apiVersion: string;
  kind: string;
  metadata: {
    name: string;
    namespace?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
  };
}
interface Container extends JsonObject {
  name: string;
  image: string;
}
interface PodSpec extends JsonObject {
  containers: Container[];
}

const render = (dir: string): K8sObject[] =>
  parseYamlDocuments(
    execFileSync('kubectl', ['kustomize', repoFile('k8s', dir)], {
      encoding: 'utf8',
      maxBuffer: 16 * 1024 * 1024,
    }),
  ) as K8sObject[];

const production = render('overlays/production');
const base = render('base');

const ofKind = (objects: K8sObject[], kind: string) => objects.filter((object) => object.kind === kind);
const named = (objects: K8sObject[], kind: string, name: string) => {
  const found = objects.find((object) => object.kind === kind && object.metadata.name === name);
  if (!found) throw new Error(`no ${kind} ${name}`);
  return found;
};
const podSpec = (deployment: K8sObject) =>
  ((deployment.spec as JsonObject).template as JsonObject).spec as PodSpec;
const podAnnotations = (deployment: K8sObject) =>
  (((deployment.spec as JsonObject).template as JsonObject).metadata as JsonObject).annotations as
    Record<string, string> | undefined;
const mainContainer = (deployment: K8sObject) =>
  podSpec(deployment).containers.find((container) => container.name === deployment.metadata.name)!;
const initContainers = (deployment: K8sObject) => (podSpec(deployment).initContainers ?? []) as Container[];
const allContainers = (deployment: K8sObject) => [
  ...initContainers(deployment),
  ...podSpec(deployment).containers,
];
const envOf = (container: Container) =>
  (container.env ?? []) as { name: string; value?: string; valueFrom?: JsonObject }[];
const secretRefs = (container: Container) =>
  envOf(container).flatMap((env) => {
    const ref = env.valueFrom?.secretKeyRef as { name: string; key: string } | undefined;
    return ref ? [{ variable: env.name, ...ref }] : [];
  });
/** The image's name without registry and tag: what compose builds and the base names. */
const imageName = (image: string) => path.basename(image).split(':')[0]!;

const deployments = ofKind(production, 'Deployment');
const serviceDeployments = deployments.filter((deployment) => deployment.metadata.name !== 'gateway');
const configMap = ofKind(production, 'ConfigMap')[0]!;
const config = configMap.data as Record<string, string>;

describe('the kustomization', () => {
  it('renders the base and the production overlay offline', () => {
    expect(base.length).toBeGreaterThan(20);
    expect(production.map((object) => object.kind)).toEqual(
      expect.arrayContaining(['Namespace', 'Deployment']),
    );
    for (const object of production) {
      if (object.kind !== 'Namespace')
        expect([object.kind, object.metadata.namespace]).toEqual([object.kind, 'uis']);
    }
  });

  it("validates every object against Kubernetes' schemas, unknown fields refused", () => {
    for (const object of [...production, ...base, secretTemplate()]) {
      const { kind, metadata } = object;
      expect([kind, metadata.name, schemaErrors(object)]).toEqual([kind, metadata.name, []]);
    }
  });

  it('refuses what the API server would (a misspelt field, a port as text)', () => {
    const deployment = JSON.parse(JSON.stringify(named(production, 'Deployment', 'auth'))) as K8sObject;
    mainContainer(deployment).readinesProbe = {};
    expect(schemaErrors(deployment)).toEqual([expect.stringMatching(/readinesProbe: unknown field/)]);
    const service = JSON.parse(JSON.stringify(named(production, 'Service', 'auth'))) as K8sObject;
    ((service.spec as JsonObject).ports as JsonObject[])[0]!.port = '3001';
    expect(schemaErrors(service).join()).toMatch(/port.*must be integer/);
  });
});

describe('the workloads', () => {
  it('run every proto service and the gateway, each from its own image', () => {
    expect(deployments.map((deployment) => deployment.metadata.name).sort()).toEqual(
      [...SERVICE_NAMES, 'gateway'].sort(),
    );
    for (const deployment of deployments) {
      for (const container of allContainers(deployment)) {
        expect([deployment.metadata.name, container.image]).toEqual([
          deployment.metadata.name,
          `registry.example.edu/uis/uis-${deployment.metadata.name}:0.1.0`,
        ]);
      }
    }
  });

  it('lock every pod down: non-root, read-only root with /tmp an emptyDir, no escalation, no capabilities', () => {
    for (const deployment of deployments) {
      const name = deployment.metadata.name;
      const pod = podSpec(deployment);
      expect([name, (pod.securityContext as JsonObject).runAsNonRoot]).toEqual([name, true]);
      expect([name, pod.automountServiceAccountToken]).toEqual([name, false]);
      for (const container of allContainers(deployment)) {
        expect([name, container.name, container.securityContext]).toEqual([
          name,
          container.name,
          { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } },
        ]);
      }
      const tmp = (mainContainer(deployment).volumeMounts as { name: string; mountPath: string }[]).find(
        (mount) => mount.mountPath === '/tmp',
      );
      const volume = (pod.volumes as JsonObject[]).find((candidate) => candidate.name === tmp?.name);
      expect([name, isObject(volume?.emptyDir)]).toEqual([name, true]);
    }
    const namespace = ofKind(production, 'Namespace')[0]!;
    expect(namespace.metadata.labels!['pod-security.kubernetes.io/enforce']).toBe('restricted');
  });

  it('give every container resource requests and limits', () => {
    for (const deployment of deployments) {
      for (const container of allContainers(deployment)) {
        const resources = container.resources as { requests?: JsonObject; limits?: JsonObject };
        for (const kind of ['requests', 'limits'] as const) {
          expect([
            deployment.metadata.name,
            container.name,
            kind,
            Object.keys(resources[kind] ?? {}),
          ]).toEqual([
            deployment.metadata.name,
            container.name,
            kind,
            expect.arrayContaining(['cpu', 'memory']),
          ]);
        }
      }
    }
  });

  it('probe readiness on /ready and liveness on /health, on the port proto gives, where Prometheus scrapes /metrics', () => {
    for (const deployment of serviceDeployments) {
      const name = deployment.metadata.name as ServiceName;
      const container = mainContainer(deployment);
      expect(container.ports).toEqual([{ name: 'http', containerPort: servicePort(name) }]);
      const probe = (kind: string) => ((container[kind] as JsonObject).httpGet as JsonObject).path;
      expect([name, probe('readinessProbe'), probe('livenessProbe'), probe('startupProbe')]).toEqual([
        name,
        '/ready',
        '/health',
        '/health',
      ]);
      expect(envOf(container).find((env) => env.name === 'PORT')?.value).toBe(String(servicePort(name)));
      expect(podAnnotations(deployment)).toEqual({
        'prometheus.io/scrape': 'true',
        'prometheus.io/port': String(servicePort(name)),
        'prometheus.io/path': '/metrics',
      });
    }
    const gateway = mainContainer(named(production, 'Deployment', 'gateway'));
    for (const kind of ['readinessProbe', 'livenessProbe']) {
      expect((gateway[kind] as JsonObject).httpGet).toMatchObject({
        scheme: 'HTTPS',
        path: '/',
        port: 'https',
      });
    }
  });

  it('migrate before each service with tables starts (init container), which then only checks', () => {
    for (const deployment of serviceDeployments) {
      const name = deployment.metadata.name as ServiceName;
      const init = initContainers(deployment);
      if (!SERVICES_WITH_TABLES.includes(name)) {
        expect([name, init]).toEqual([name, []]);
        continue;
      }
      expect(init.map((container) => container.command)).toEqual([['node', 'dist/src/migrate.js']]);
      expect(init[0]!.image).toBe(mainContainer(deployment).image);
      expect(secretRefs(init[0]!).map((ref) => ref.key)).toEqual(['DATABASE_URL']);
      expect(envOf(mainContainer(deployment)).find((env) => env.name === 'MIGRATE_ON_START')?.value).toBe(
        'false',
      );
    }
  });

  it('scale realtime with an autoscaler and keep one up through disruptions; signal stays one', () => {
    const hpa = named(production, 'HorizontalPodAutoscaler', 'realtime').spec as JsonObject;
    expect(hpa.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: 'realtime' });
    expect(hpa.minReplicas).toBeGreaterThanOrEqual(2);
    expect((named(production, 'Deployment', 'realtime').spec as JsonObject).replicas).toBeUndefined();
    const pdb = named(production, 'PodDisruptionBudget', 'realtime').spec as JsonObject;
    expect(pdb).toEqual({
      minAvailable: 1,
      selector: { matchLabels: { 'app.kubernetes.io/name': 'realtime' } },
    });
    const signal = named(production, 'Deployment', 'signal').spec as JsonObject;
    expect([signal.replicas, (signal.strategy as JsonObject).type]).toEqual([1, 'Recreate']);
  });
});

describe('the way in', () => {
  const ingress = named(production, 'Ingress', 'uis');
  const annotations = ingress.metadata.annotations!;

  it('sends everything to the gateway, over TLS, for the host of PUBLIC_URL', () => {
    const spec = ingress.spec as { rules: JsonObject[]; tls: { hosts: string[] }[] };
    const host = new URL(config.PUBLIC_URL!).host;
    expect(spec.rules).toEqual([
      {
        host,
        http: {
          paths: [
            {
              path: '/',
              pathType: 'Prefix',
              backend: { service: { name: 'gateway', port: { name: 'https' } } },
            },
          ],
        },
      },
    ]);
    expect(spec.tls[0]!.hosts).toEqual([host]);
    expect(annotations['nginx.ingress.kubernetes.io/backend-protocol']).toBe('HTTPS');
    expect((named(production, 'Service', 'gateway').spec as JsonObject).ports).toEqual([
      { name: 'https', port: 8443, targetPort: 'https' },
    ]);
  });

  it('carries uploads as large as the largest video, unbuffered, and idle WebSockets', () => {
    const size = /^(\d+)m$/.exec(annotations['nginx.ingress.kubernetes.io/proxy-body-size']!)!;
    const routes = readRepoFile('gateway', 'routes.conf');
    const gatewayLimit = Number(/client_max_body_size (\d+);/.exec(routes)![1]);
    expect(Number(size[1]) * 1024 * 1024).toBeGreaterThanOrEqual(gatewayLimit);
    expect(gatewayLimit).toBeGreaterThan(VIDEO_UPLOAD_MAX_BYTES);
    expect(annotations['nginx.ingress.kubernetes.io/proxy-request-buffering']).toBe('off');
    const uploadTimeout = Number(/proxy_read_timeout (\d+)s;/.exec(routes)![1]);
    for (const timeout of ['proxy-read-timeout', 'proxy-send-timeout']) {
      expect(Number(annotations[`nginx.ingress.kubernetes.io/${timeout}`])).toBeGreaterThanOrEqual(
        uploadTimeout,
      );
    }
  });

  it('names Services as the gateway reaches them (upstreams.conf)', () => {
    const upstreams = [...readRepoFile('gateway', 'upstreams.conf').matchAll(/server ([a-z]+):(\d+);/g)];
    expect(upstreams.length).toBeGreaterThan(0);
    for (const [, name, port] of upstreams) {
      const ports = (named(production, 'Service', name!).spec as JsonObject).ports as JsonObject[];
      expect([name, ports.map((entry) => entry.port)]).toEqual([name, [Number(port)]]);
    }
  });
});

describe('network policies', () => {
  const policies = ofKind(production, 'NetworkPolicy').map((policy) => policy.spec as JsonObject);
  const labelsOf = (name: string) =>
    (
      (named(production, 'Deployment', name).spec as JsonObject).template as {
        metadata: { labels: Record<string, string> };
      }
    ).metadata.labels;
  const selects = (selector: JsonObject, labels: Record<string, string>) => {
    const matchLabels = (selector.matchLabels ?? {}) as Record<string, string>;
    const expressions = (selector.matchExpressions ?? []) as {
      key: string;
      operator: string;
      values: string[];
    }[];
    return (
      Object.entries(matchLabels).every(([key, value]) => labels[key] === value) &&
      expressions.every(
        (expression) => expression.operator === 'In' && expression.values.includes(labels[expression.key]!),
      )
    );
  };
  /** Who may open connections to a workload: "pod:<name>" of this namespace, or "namespace:<name>". */
  const allowedSources = (name: string) => {
    const sources = new Set<string>();
    for (const policy of policies) {
      if (!selects(policy.podSelector as JsonObject, labelsOf(name))) continue;
      for (const rule of (policy.ingress ?? []) as { from?: JsonObject[] }[]) {
        expect(rule.from?.length).toBeGreaterThan(0); // no rule open to everyone
        for (const peer of rule.from!) {
          if (peer.podSelector) {
            for (const other of deployments) {
              if (selects(peer.podSelector as JsonObject, labelsOf(other.metadata.name)))
                sources.add(`pod:${other.metadata.name}`);
            }
          }
          if (peer.namespaceSelector) {
            const labels = (peer.namespaceSelector as JsonObject).matchLabels as Record<string, string>;
            sources.add(`namespace:${labels['kubernetes.io/metadata.name']}`);
          }
        }
      }
    }
    return [...sources].sort();
  };

  it('deny everything not allowed', () => {
    expect(policies).toContainEqual({ podSelector: {}, policyTypes: ['Ingress'] });
  });

  it('let only the Ingress controller reach the gateway', () => {
    expect(allowedSources('gateway')).toEqual(['namespace:ingress-nginx']);
  });

  it('let only the gateway and the services reach the services, and Prometheus their metrics', () => {
    const api = ['auth', 'studies', 'content', 'records', 'realtime', 'signal'];
    for (const name of api) {
      expect([name, allowedSources(name)]).toEqual([
        name,
        ['namespace:monitoring', ...['gateway', ...api].map((pod) => `pod:${pod}`)].sort(),
      ]);
    }
    expect(allowedSources('mailer')).toEqual(['namespace:monitoring']);
  });
});

describe('configuration, and agreement with docker-compose.yml', () => {
  const readers = readersByVariable();
  const template = secretTemplate();
  const templateKeys = Object.keys(template.stringData as JsonObject);
  const composeEnv = composeEnvironments();

  it('keeps secrets out: the template has every key empty and is not rendered; the ConfigMap holds none', () => {
    expect(Object.values(template.stringData as JsonObject).every((value) => value === '')).toBe(true);
    expect(ofKind(production, 'Secret')).toEqual([]);
    for (const key of templateKeys) expect(Object.keys(config)).not.toContain(key);
    const referenced = new Set(
      deployments
        .flatMap(allContainers)
        .flatMap(secretRefs)
        .map((ref) => `${ref.name}/${ref.key}`),
    );
    expect([...referenced].sort()).toEqual(templateKeys.map((key) => `uis-secrets/${key}`).sort());
    for (const deployment of deployments) {
      for (const ref of allContainers(deployment).flatMap(secretRefs)) expect(ref.variable).toBe(ref.key);
    }
  });

  it('gives each service only the secrets docs/configuration.md says it reads, and configuration variables that exist', () => {
    for (const deployment of serviceDeployments) {
      const name = deployment.metadata.name as ServiceName;
      for (const ref of secretRefs(mainContainer(deployment))) {
        expect([name, ref.key, readers.get(ref.key)?.includes(name)]).toEqual([name, ref.key, true]);
      }
    }
    for (const key of Object.keys(config)) expect([key, readers.has(key)]).toEqual([key, true]);
  });

  it('offers each service every variable compose gives it', () => {
    for (const deployment of serviceDeployments) {
      const name = deployment.metadata.name;
      const offered = new Set([
        ...Object.keys(config),
        ...envOf(mainContainer(deployment)).map((env) => env.name),
      ]);
      const missing = Object.keys(composeEnv[name]!).filter((variable) => !offered.has(variable));
      expect([name, missing]).toEqual([name, []]);
    }
  });

  it("gives the gateway the web app's settings from the ConfigMap, those docs/configuration.md says it reads and no other", () => {
    const gatewayReads = [...readers]
      .filter(([, by]) => by.includes('gateway'))
      .map(([variable]) => variable);
    expect(gatewayReads.sort()).toEqual(Object.values(APP_CONFIG_ENV).sort());
    const gateway = named(production, 'Deployment', 'gateway');
    expect(podSpec(gateway).containers.map((container) => container.name)).toEqual(['gateway']);
    expect(mainContainer(gateway).envFrom).toBeUndefined();
    const env = envOf(mainContainer(gateway));
    expect(env.map((entry) => entry.name).sort()).toEqual(gatewayReads);
    expect(Object.keys(composeEnv.gateway!).sort()).toEqual(gatewayReads);
    for (const entry of env) {
      // The generated ConfigMap's name (kustomize adds its hash), the key of the same name, present.
      expect([entry.name, entry.valueFrom]).toEqual([
        entry.name,
        { configMapKeyRef: { name: configMap.metadata.name, key: entry.name } },
      ]);
      expect([entry.name, config[entry.name]]).toEqual([entry.name, '']);
    }
  });

  it('uses the images, ports and internal addresses compose uses', () => {
    const compose = composeFile();
    const dockerfile = parseDockerfile(readRepoFile('Dockerfile'));
    for (const deployment of deployments) {
      const name = deployment.metadata.name;
      const composeImage = compose.services[name]!.image as string;
      for (const container of allContainers(deployment))
        expect(imageName(container.image)).toBe(imageName(composeImage));
      if (name === 'gateway') continue;
      expect(effective(dockerfile, name, 'ENV')?.args).toBe(`PORT=${servicePort(name as ServiceName)}`);
    }
    const baseImages = new Set(
      ofKind(base, 'Deployment')
        .flatMap(allContainers)
        .map((container) => container.image),
    );
    expect([...baseImages].sort()).toEqual(
      Object.values(compose.services)
        .filter((service) => service.build)
        .map((service) => imageName(service.image as string))
        .filter((image, index, all) => all.indexOf(image) === index)
        .sort(),
    );
    for (const name of SERVICE_NAMES) {
      const variable = `${name.toUpperCase()}_URL`;
      expect([variable, config[variable]]).toEqual([variable, composeEnv.auth![variable]]);
    }
  });

  it('lets browsers on PUBLIC_URL open the WebSockets, and trusts the Ingress and the gateway', () => {
    expect(config.ALLOWED_ORIGINS).toBe(new URL(config.PUBLIC_URL!).origin);
    expect(config.TRUST_PROXY).toBe('2');
    expect(config.NODE_ENV).toBe('production');
  });

  it('reads its overlay values as kustomize does (KEY=value lines)', () => {
    const overlay = parseEnvFile(readRepoFile('k8s', 'overlays', 'production', 'config.env'));
    for (const { name, value } of overlay) expect([name, config[name]]).toEqual([name, value]);
  });
});

describe('the TURN server (k8s/turn)', () => {
  const turn = render('turn');
  const coturn = named(turn, 'Deployment', 'coturn');

  it("renders in the app's namespace, every object valid", () => {
    for (const object of turn) {
      expect([object.kind, object.metadata.namespace]).toEqual([object.kind, 'uis']);
      expect([object.kind, object.metadata.name, schemaErrors(object)]).toEqual([
        object.kind,
        object.metadata.name,
        [],
      ]);
    }
  });

  it("runs locked down like the app's pods, with the TURN_SECRET signal reads", () => {
    const pod = podSpec(coturn);
    expect([(pod.securityContext as JsonObject).runAsNonRoot, pod.automountServiceAccountToken]).toEqual([
      true,
      false,
    ]);
    expect(mainContainer(coturn).securityContext).toEqual({
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      capabilities: { drop: ['ALL'] },
    });
    expect(secretRefs(mainContainer(coturn))).toEqual([
      { variable: 'TURN_SECRET', name: 'uis-secrets', key: 'TURN_SECRET' },
    ]);
    expect(readersByVariable().get('TURN_SECRET')).toContain('signal');
    expect(Object.keys(secretTemplate().stringData as JsonObject)).toContain('TURN_SECRET');
  });

  it('relays to public peers only, over UDP: the list signal starts coturn with, and TURN_DENIED_PEER_IPS besides', () => {
    const script = (mainContainer(coturn).args as string[]).join('\n');
    const words = script.split(/\s+/);
    const flags = words.filter((word) =>
      /^--(denied-peer-ip=[^$]|no-multicast-peers|no-tcp-relay)/.test(word),
    );
    expect(flags).toEqual([...PEER_RESTRICTIONS]);
    // The operator's own ranges, one flag each.
    expect(script).toContain(
      'for range in $TURN_DENIED_PEER_IPS; do denied="$denied --denied-peer-ip=$range"; done',
    );
    expect(script).not.toMatch(/--allow(ed)?-(loopback-peers|peer-ip)/);
  });

  it('lets browsers reach its port and every relay port it uses, over UDP, and nothing else', () => {
    const script = (mainContainer(coturn).args as string[]).join('\n');
    const [, min, max] = /--min-port=(\d+) --max-port=(\d+)/.exec(script)!.map(Number);
    const relay = Array.from({ length: max! - min! + 1 }, (_, index) => min! + index);
    const service = named(turn, 'Service', 'coturn').spec as JsonObject;
    expect(service.type).toBe('LoadBalancer');
    const ports = service.ports as { port: number; protocol: string }[];
    expect(ports.map((port) => port.port)).toEqual([3478, ...relay]);
    expect(new Set(ports.map((port) => port.protocol))).toEqual(new Set(['UDP']));
    const policy = named(turn, 'NetworkPolicy', 'coturn-from-anywhere').spec as JsonObject;
    expect(((policy.ingress as JsonObject[])[0]!.ports as JsonObject[]).slice(1)).toEqual([
      { protocol: 'UDP', port: min, endPort: max },
    ]);
  });
});

describe('the first researcher (k8s/first-researcher)', () => {
  const objects = render('first-researcher');
  const job = named(objects, 'Job', 'promote-researcher');
  const container = podSpec(job).containers[0]!;

  it("is one Job in the app's namespace, valid, and not in the overlay that `kubectl apply` repeats", () => {
    expect(objects.map((object) => [object.kind, object.metadata.namespace])).toEqual([['Job', 'uis']]);
    expect(schemaErrors(job)).toEqual([]);
    expect(ofKind(production, 'Job')).toEqual([]);
  });

  it("runs the auth image's promote command, from the overlay's image, with the database alone", () => {
    expect(container.image).toBe(mainContainer(named(production, 'Deployment', 'auth')).image);
    expect(container.command).toEqual(['node', 'dist/src/promote.js']);
    // dist/src is what the image holds of auth (deployment-images.test.ts).
    expect(fs.existsSync(repoFile('services', 'auth', 'src', 'promote.ts'))).toBe(true);
    expect(container.args).toEqual([expect.stringMatching(/^[^@\s]+@[^@\s]+$/)]);
    expect(secretRefs(container)).toEqual([
      { variable: 'DATABASE_URL', name: 'uis-secrets', key: 'DATABASE_URL' },
    ]);
    expect(envOf(container).map((env) => env.name)).toEqual(['DATABASE_URL']);
  });

  it("runs once, locked down like the app's pods, with requests and limits", () => {
    const pod = podSpec(job);
    expect((job.spec as JsonObject).backoffLimit).toBe(0);
    expect(pod.restartPolicy).toBe('Never');
    expect([(pod.securityContext as JsonObject).runAsNonRoot, pod.automountServiceAccountToken]).toEqual([
      true,
      false,
    ]);
    expect(container.securityContext).toEqual({
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      capabilities: { drop: ['ALL'] },
    });
    expect(Object.keys(container.resources as JsonObject).sort()).toEqual(['limits', 'requests']);
  });
});

// ---------------------------------------------------------------------------------------------------

function secretTemplate(): K8sObject {
  return parseYaml(readRepoFile('k8s', 'base', 'secret.template.yaml')) as K8sObject;
}

/** docker-compose.yml's services, interpolated with .env.example and placeholder secrets. */
function composeFile(): { services: Record<string, JsonObject> } {
  const env: Record<string, string> = {
    ...Object.fromEntries(parseEnvFile(readRepoFile('.env.example')).map((line) => [line.name, line.value])),
    JWT_SECRET: 's'.repeat(64),
    SERVICE_TOKEN: 's'.repeat(64),
    POSTGRES_PASSWORD: 's'.repeat(64),
    S3_SECRET_KEY: 's'.repeat(64),
  };
  return interpolateAll(parseYaml(readRepoFile('docker-compose.yml')), env) as {
    services: Record<string, JsonObject>;
  };
}

function composeEnvironments(): Record<string, Record<string, string>> {
  return Object.fromEntries(
    Object.entries(composeFile().services).map(([name, service]) => [
      name,
      (service.environment ?? {}) as Record<string, string>,
    ]),
  );
}

interface KubeModel {
  validate(): void;
}
type RawValidate = ((data: unknown) => boolean) & {
  errors?: { instancePath: string; message?: string }[] | null;
};

/**
 * kubernetes-models' check of an object (types, required fields, formats), plus the fields it does not
 * know. Its validators accept unknown fields, which the API server's strict field validation refuses
 * (a misspelt `readinesProbe` would pass silently): the generated validator reads each field its
 * schema knows, so a field it never read is unknown, unless the object is a map it iterated.
 */
function schemaErrors(object: K8sObject): string[] {
  const [group, version] = object.apiVersion.includes('/')
    ? object.apiVersion.split('/')
    : ['', object.apiVersion];
  const id = `kubernetes-models/${group ? `${group}/` : ''}${version}/${object.kind}`;
  const install = 'kubernetes-models@4.5.1';
  const exported = devDependency<Record<string, new (data: object) => KubeModel>>(id, install);
  try {
    new exported[object.kind]!(object).validate();
  } catch (error) {
    return [(error as Error).message];
  }
  const schemaName = Object.keys(exported).find((key) => key.startsWith('IoK8s'))!;
  let root = path.dirname(devDependencyPath(id, install));
  while (path.basename(root) !== 'kubernetes-models') root = path.dirname(root);
  const validate = devDependency<{ validate: RawValidate }>(
    path.join(root, '_schemas', `${schemaName}.js`),
    install,
  ).validate;
  const seen: { path: string; keys: string[]; read: Set<string>; iterated: boolean }[] = [];
  const track = (value: unknown, at: string): unknown => {
    if (Array.isArray(value)) return value.map((item, index) => track(item, `${at}/${index}`));
    if (!isObject(value)) return value;
    const record = { path: at, keys: Object.keys(value), read: new Set<string>(), iterated: false };
    seen.push(record);
    const copy = Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, track(item, `${at}/${key}`)]),
    );
    return new Proxy(copy, {
      get(target, key, receiver) {
        if (typeof key === 'string') record.read.add(key);
        return Reflect.get(target, key, receiver) as unknown;
      },
      ownKeys(target) {
        record.iterated = true;
        return Reflect.ownKeys(target);
      },
    });
  };
  if (!validate(track(object, '')))
    return (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message}`);
  return seen.flatMap((record) =>
    record.iterated
      ? []
      : record.keys
          .filter((key) => !record.read.has(key))
          .map((key) => `${record.path}/${key}: unknown field`),
  );
}
