import net from 'node:net';

/**
 * A loopback port the OS says is free right now: for a server a test starts later, or for a URL
 * that must point at nothing (a dependency that is "down").
 */
export async function freePort(host = '127.0.0.1'): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject);
    probe.listen(0, host, () => resolve());
  });
  const { port } = probe.address() as net.AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
