import net from 'node:net';

/** A client's connection through the proxy, and whether the cut took it. */
interface Connection {
  client: net.Socket;
  backend: net.Socket;
  lost: boolean;
}

/**
 * A TCP proxy in front of one realtime replica whose path to the clients can fail as networks do.
 *
 * - blackHole(): a black hole, not a refusal. Nothing passes either way and nobody is told: open
 *   connections go silent, new ones are accepted and never answered, nothing is reset. When the
 *   path comes back (mend()) it is a new one (a change of network, a NAT that forgot its mappings):
 *   what was in flight is gone and the connections the cut took stay silent for good, so each end
 *   learns of it only from its own heartbeat; new connections pass.
 * - trickle(): a slow link. What the server sends reaches the client a byte at a time, so two
 *   frames written together arrive apart, as a browser sees each WebSocket message in a task of
 *   its own.
 */
export class FaultyPath {
  private cut = false;
  private slow = false;
  private readonly connections = new Set<Connection>();

  private constructor(
    private readonly server: net.Server,
    private readonly backendPort: number,
    /** What clients connect to. */
    readonly url: string,
  ) {
    server.on('connection', (client) => this.accept(client));
  }

  static async start(backendPort: number): Promise<FaultyPath> {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    return new FaultyPath(server, backendPort, `http://127.0.0.1:${port}`);
  }

  /** From now on nothing passes, until mend(); the connections open now never carry anything again. */
  blackHole(): void {
    this.cut = true;
    for (const connection of this.connections) connection.lost = true;
  }

  /** New connections pass again. */
  mend(): void {
    this.cut = false;
  }

  /** From now on what the server sends arrives a byte at a time (on every connection). */
  trickle(): void {
    this.slow = true;
  }

  private accept(client: net.Socket): void {
    const backend = net.connect(this.backendPort, '127.0.0.1');
    const connection: Connection = { client, backend, lost: this.cut };
    this.connections.add(connection);
    // Bytes to the client waiting to be trickled, one per turn of the event loop.
    const trickling: number[] = [];
    let afterDrip: (() => void) | undefined;
    const drip = () => {
      const byte = trickling.shift();
      if (byte === undefined) return afterDrip?.();
      if (connection.lost || client.destroyed) return;
      client.write(Buffer.of(byte));
      setImmediate(drip);
    };
    client.setNoDelay(true);
    const forward = (from: net.Socket, to: net.Socket) => {
      from.on('data', (chunk: Buffer) => {
        if (connection.lost) return;
        if (this.slow && to === client) {
          const idle = trickling.length === 0;
          trickling.push(...chunk);
          if (idle) drip();
          return;
        }
        // Backpressure, as a pipe has it.
        if (!to.write(chunk)) {
          from.pause();
          to.once('drain', () => from.resume());
        }
      });
      // One side going away takes the other with it, unless the cut took the connection: then
      // nobody hears of it.
      from.on('close', () => {
        // The server's last bytes still trickling reach the client before the end does.
        if (to === client && trickling.length > 0) afterDrip = () => client.destroy();
        else if (!connection.lost) to.destroy();
        if (client.destroyed && backend.destroyed) this.connections.delete(connection);
      });
      from.on('error', () => undefined);
    };
    forward(client, backend);
    forward(backend, client);
  }

  async close(): Promise<void> {
    for (const { client, backend } of this.connections) {
      client.destroy();
      backend.destroy();
    }
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
