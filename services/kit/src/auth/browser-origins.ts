import { z } from 'zod';

/**
 * Which browser pages may open a WebSocket to a service (realtime's socket.io, signal's PeerJS).
 * A WebSocket is not bound by CORS and carries the accessToken cookie, so without this check any
 * page of the same site (another port on the host) could act as the signed-in user.
 */

/** The Vite dev server: `npm run dev` serves the web app there and proxies the sockets. */
export const VITE_DEV_ORIGIN = 'http://localhost:5173';

const originOf = (value: string): string | null => {
  try {
    const url = new URL(value);
    return /^https?:$/.test(url.protocol) && url.origin === value.replace(/\/$/, '') ? url.origin : null;
  } catch {
    return null;
  }
};

/** localhost and 127.0.0.1 are the same machine: a default that names one allows the other. */
function withLoopbackTwin(origin: string): string[] {
  const url = new URL(origin);
  const twin = { localhost: '127.0.0.1', '127.0.0.1': 'localhost' }[url.hostname];
  if (!twin) return [origin];
  url.hostname = twin;
  return [origin, url.origin];
}

/** `ALLOWED_ORIGINS`: a comma-separated list of origins (scheme://host[:port], no path). */
export const allowedOriginsEnv = z.object({
  ALLOWED_ORIGINS: z
    .string()
    .transform((value, ctx) => {
      const entries = value
        .split(',')
        .map((entry) => entry.trim())
        .filter(Boolean);
      const origins: string[] = [];
      for (const entry of entries) {
        const origin = originOf(entry);
        if (origin) origins.push(origin);
        else ctx.addIssue({ code: 'custom', message: `'${entry}' is not an origin like https://host:port` });
      }
      if (entries.length === 0) ctx.addIssue({ code: 'custom', message: 'must name at least one origin' });
      return origins;
    })
    .optional(),
});

/** ALLOWED_ORIGINS, or by default PUBLIC_URL's origin and the Vite dev server (with loopback twins). */
export const allowedOriginsOf = (config: { ALLOWED_ORIGINS?: string[]; PUBLIC_URL: string }): string[] =>
  config.ALLOWED_ORIGINS ?? [new URL(config.PUBLIC_URL).origin, VITE_DEV_ORIGIN].flatMap(withLoopbackTwin);

/**
 * Why a WebSocket request may not connect because of its Origin, or null when it may. A request with
 * no Origin header is not a browser and cannot be driven by another site, so only its token counts.
 */
export const originRefusal = (allowed: ReadonlySet<string>, origin: string | undefined): string | null =>
  origin === undefined || allowed.has(origin) ? null : `Connections from ${origin} are not allowed.`;
