import net from 'node:net';

/**
 * A tiny TCP load balancer (and byte counter), standing in for the one in front of realtime replicas in production
 * (nginx, a Kubernetes Service): each new connection goes to the next backend in turn, and to the
 * one after when a backend refuses. Clients keep one URL; when a replica dies, their reconnect
 * lands on a live one.
 */
export class TcpBalancer {
  private next = 0;
  /** Bytes through it so far: what the clients sent, and what they received. */
  readonly bytes = { fromClients: 0, toClients: 0 };
  private readonly sockets = new Set<net.Socket>();
  /** Open client connections per backend port. */
  private readonly open = new Map<number, number>();

  private constructor(
    private readonly server: net.Server,
    private readonly backends: readonly number[],
    /** What clients connect to. */
    readonly url: string,
  ) {
    server.on('connection', (client) => this.route(client, this.next++, 0));
  }

  static async start(backendPorts: readonly number[]): Promise<TcpBalancer> {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    return new TcpBalancer(server, backendPorts, `http://127.0.0.1:${port}`);
  }

  /** Tries the backends in turn from `first`, each at most once. */
  private route(client: net.Socket, first: number, attempt: number): void {
    if (attempt >= this.backends.length) {
      client.destroy();
      return;
    }
    const port = this.backends[(first + attempt) % this.backends.length]!;
    const backend = net.connect(port, '127.0.0.1');
    const onRefused = () => this.route(client, first, attempt + 1);
    backend.once('error', onRefused);
    backend.once('connect', () => {
      backend.off('error', onRefused);
      this.track(client);
      this.track(backend);
      client.on('data', (chunk: Buffer) => (this.bytes.fromClients += chunk.length));
      backend.on('data', (chunk: Buffer) => (this.bytes.toClients += chunk.length));
      client.pipe(backend);
      backend.pipe(client);
      this.open.set(port, (this.open.get(port) ?? 0) + 1);
      let closed = false;
      // Either side going away takes the other with it, as a dead replica's connections do.
      const both = () => {
        if (!closed) this.open.set(port, (this.open.get(port) ?? 1) - 1);
        closed = true;
        client.destroy();
        backend.destroy();
      };
      client.on('close', both).on('error', both);
      backend.on('close', both).on('error', both);
    });
    client.on('error', () => backend.destroy());
  }

  /** How many client connections are open to the backend on `port` now. */
  connectionsTo(port: number): number {
    return this.open.get(port) ?? 0;
  }

  private track(socket: net.Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
