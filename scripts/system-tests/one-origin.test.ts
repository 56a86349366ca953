import http from 'node:http';
import { signAccessToken } from '@uis/kit';
import { PEER_PATH, REALTIME_PATH } from '@uis/proto';
import { io, type Socket } from 'socket.io-client';
import { startComposedStack, type ComposedStack } from './support/composed-stack';

/**
 * socket.io and PeerJS answer through the API port too (as through the gateway), so the browser
 * needs one origin: the dispatcher hands their requests and upgrades to their own servers.
 */
describe('one origin for REST, socket.io and PeerJS', () => {
  let stack: ComposedStack;
  let base: string;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    stack = await startComposedStack('one_origin');
    base = stack.env.PUBLIC_URL!; // the dispatcher
  });
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await stack.close();
  });

  const token = (secret: string) =>
    signAccessToken(
      secret,
      {
        id: '00000000-0000-4000-8000-000000000001',
        email: 'ada@uni.example',
        name: 'Ada',
        type: 'researcher',
        loginId: '00000000-0000-4000-8000-000000000002',
      },
      60,
    );

  /** Connects through the dispatcher; answers 'connected' or the handshake's refusal. */
  const connect = (auth: { token: string }) =>
    new Promise<string>((resolve) => {
      const socket = io(base, { path: REALTIME_PATH, transports: ['websocket'], auth, reconnection: false });
      sockets.push(socket);
      socket.on('connect', () => resolve('connected'));
      socket.on('connect_error', (error) => resolve(`refused: ${error.message}`));
    });

  it('carries a socket.io WebSocket to realtime, whose handshake checks the token', async () => {
    expect(await connect({ token: token(stack.env.JWT_SECRET!) })).toBe('connected');
    expect(await connect({ token: token('another-secret-that-is-long-enough-to-sign') })).toMatch(
      /^refused: /,
    );
  });

  it("answers PeerJS's HTTP endpoint from signal", async () => {
    const res = await stack.http().get(`${PEER_PATH}/peerjs/id`);
    expect(res.status).toBe(200);
    expect(res.text).toMatch(/^[\w-]+$/);
  });

  it('closes an upgrade for any other path with 404', async () => {
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const req = http.request(`${base}/auth/magiclogin`, {
        headers: { Connection: 'Upgrade', Upgrade: 'websocket' },
      });
      req.on('response', (res) => resolve(res.statusCode));
      req.on('upgrade', () => resolve(101));
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(404);
  });
});
