import net from 'node:net';

// Below Linux's ephemeral range (32768-60999): outgoing connections and listen(0) take their ports
// from there, so a port handed out from it could be taken before the test's server listens on it.
const FIRST = 20_000;
const LAST = 32_767;
const handedOut = new Set<number>();

const bindable = (port: number, host: string) =>
  new Promise<boolean>((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, host, () => probe.close(() => resolve(true)));
  });

/**
 * A loopback port that is free and stays free until a server a test starts later listens on it (or
 * for a URL that must point at nothing: a dependency that is "down"). Never the same twice in a
 * process; another process picks at random among 12,768 ports.
 */
export async function freePort(host = '127.0.0.1'): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = FIRST + Math.floor(Math.random() * (LAST - FIRST + 1));
    if (handedOut.has(port)) continue;
    handedOut.add(port); // before the await: calls made together never share a port
    if (await bindable(port, host)) return port;
    handedOut.delete(port);
  }
  throw new Error(`no free port between ${FIRST} and ${LAST} on ${host}`);
}
