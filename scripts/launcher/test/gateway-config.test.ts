import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { APP_CONFIG_PATH, DEFAULT_APP_CONFIG, routeList } from '@uis/proto';
import { repoRoot } from '../src/data-dir';
import { GENERATED_GATEWAY_FILES, containerUpstreams } from '../src/gateway-config';
import { prepareGatewayRun, testGatewayConfig } from '../src/stack/gateway-process';
import { ensureSelfSignedCertificate } from '../src/stack/self-signed-certificate';

/** The gateway's generated files are what proto and kit say today, and nginx loads the whole config. */
describe('gateway/', () => {
  it.each(Object.entries(GENERATED_GATEWAY_FILES))(
    '%s is up to date (npm run gateway writes it)',
    (file, render) => {
      const checkedIn = fs.readFileSync(path.join(repoRoot(), file), 'utf8');
      expect(checkedIn).toBe(render());
    },
  );

  it("routes every REST path of proto's table, to the service that owns it", () => {
    const routesConf = fs.readFileSync(path.join(repoRoot(), 'gateway/routes.conf'), 'utf8');
    for (const route of routeList.filter(({ path: routePath }) => !routePath.includes(':'))) {
      expect(routesConf).toContain(`location = ${route.path} {`);
      const block = routesConf.slice(routesConf.indexOf(`location = ${route.path} {`));
      expect(block.slice(0, block.indexOf('}'))).toContain(`proxy_pass http://uis_${route.service};`);
    }
  });

  it("serves the web app's run-time settings where the app reads them", () => {
    const nginxConf = fs.readFileSync(path.join(repoRoot(), 'gateway/nginx.conf'), 'utf8');
    expect(nginxConf).toContain(`location = ${APP_CONFIG_PATH} {`);
  });

  it('loads in nginx (nginx -t), with the upstreams of the containers', () => {
    const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'uis-gateway-'));
    try {
      const runDir = path.join(scratch, 'run');
      prepareGatewayRun({
        runDir,
        port: 18443,
        // Container names do not resolve here: the same upstreams on loopback.
        upstreams: containerUpstreams(() => '127.0.0.1'),
        tls: ensureSelfSignedCertificate(path.join(scratch, 'tls')),
        accessLogPort: 5514,
        appConfig: DEFAULT_APP_CONFIG,
      });
      expect(() => testGatewayConfig(runDir)).not.toThrow();
    } finally {
      fs.rmSync(scratch, { recursive: true, force: true });
    }
  });
});
