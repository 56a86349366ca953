import type { Server } from 'node:http';
import net from 'node:net';
import { StartupError } from './startup-error';

/** A port this process will open, and how to move it when it is taken. */
export interface PortClaim {
  port: number;
  /** The environment variable that overrides the port. */
  envName: string;
  /** What usually holds it, for the message. */
  usualHolder?: string;
  /** Listen address; all interfaces when omitted. */
  host?: string;
}

/**
 * A failure to listen on the claim's port, said for the person: what holds it and how to move (a
 * StartupError). Any other error passes through unchanged.
 */
export function portError(claim: PortClaim, error: NodeJS.ErrnoException): Error {
  if (error.code === 'EACCES') {
    return new StartupError(
      `Port ${claim.port} cannot be opened (permission denied). Choose another one with ${claim.envName}.`,
    );
  }
  if (error.code !== 'EADDRINUSE') return error;
  const holder = claim.usualHolder ?? 'is another `npm start` running?';
  return new StartupError(
    `Port ${claim.port} is already in use (${holder}). Stop it or set ${claim.envName}.`,
  );
}

/** Listens on the claim's port and resolves once bound; binding errors become a StartupError. */
export function listenOn(server: Server | net.Server, claim: PortClaim): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => reject(portError(claim, error));
    server.once('error', onError);
    server.listen(claim.port, claim.host, () => {
      server.off('error', onError);
      resolve();
    });
  });
}

/**
 * Fails with a clear message when the port is taken, before anything else starts: much better than
 * a half-started process that dies on its third listen.
 */
export async function assertPortFree(claim: PortClaim): Promise<void> {
  const probe = net.createServer();
  await listenOn(probe, claim);
  await new Promise<void>((resolve) => probe.close(() => resolve()));
}

/** Checks every claim and reports all the taken ports at once. */
export async function assertPortsFree(claims: readonly PortClaim[]): Promise<void> {
  const results = await Promise.allSettled(claims.map((claim) => assertPortFree(claim)));
  const failures = results.flatMap((result) =>
    result.status === 'rejected' ? [result.reason as Error] : [],
  );
  const [first, ...others] = failures;
  if (first && others.length === 0) throw first;
  if (first) throw new StartupError(failures.map((error) => error.message).join('\n'));
}

/** Parses a port variable, with a StartupError naming the variable when it is not a port. */
export function portFromEnv(envName: string, fallback: number, env: NodeJS.ProcessEnv = process.env): number {
  const raw = env[envName];
  if (raw === undefined || raw === '') return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new StartupError(`${envName}=${raw} is not a port number (1-65535).`);
  }
  return port;
}

/** Closes a server without waiting for keep-alive clients to hang up. */
export function closeServer(server: Server, graceMs = 1_000): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) return resolve();
    const force = setTimeout(() => server.closeAllConnections(), graceMs);
    force.unref();
    server.close(() => {
      clearTimeout(force);
      resolve();
    });
    server.closeIdleConnections();
  });
}
