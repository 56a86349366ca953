import net from 'node:net';
import { freePort } from '@uis/kit/testing';
import { assertPortFree, assertPortsFree, listenOn, portFromEnv } from '../src/ports';
import { StartupError } from '../src/startup-error';

describe('port checks', () => {
  let holder: net.Server;
  let taken: number;

  beforeAll(async () => {
    holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(0, () => resolve()));
    taken = (holder.address() as net.AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => holder.close(() => resolve())));

  it('says which port is taken and how to move, as a StartupError (printed without a stack)', async () => {
    const check = assertPortFree({ port: taken, envName: 'API_PORT' });
    await expect(check).rejects.toBeInstanceOf(StartupError);
    await expect(assertPortFree({ port: taken, envName: 'API_PORT' })).rejects.toThrow(
      `Port ${taken} is already in use (is another \`npm start\` running?). Stop it or set API_PORT.`,
    );
  });

  it('reports every taken port at once', async () => {
    const free = await freePort();
    await expect(
      assertPortsFree([
        { port: taken, envName: 'API_PORT' },
        { port: free, envName: 'SIGNAL_PORT' },
        { port: taken, envName: 'REALTIME_PORT', usualHolder: 'or MinIO?' },
      ]),
    ).rejects.toThrow(
      `Port ${taken} is already in use (is another \`npm start\` running?). Stop it or set API_PORT.\n` +
        `Port ${taken} is already in use (or MinIO?). Stop it or set REALTIME_PORT.`,
    );
  });

  it('accepts a free port, and leaves it free', async () => {
    const port = await freePort();
    await assertPortFree({ port, envName: 'API_PORT' });
    const server = net.createServer();
    await listenOn(server, { port, envName: 'API_PORT' });
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('rejects a port variable that is not a port', () => {
    expect(portFromEnv('API_PORT', 8443, {})).toBe(8443);
    expect(portFromEnv('API_PORT', 8443, { API_PORT: '9443' })).toBe(9443);
    expect(() => portFromEnv('API_PORT', 8443, { API_PORT: 'eighty' })).toThrow(
      'API_PORT=eighty is not a port number (1-65535).',
    );
  });
});
