import helmet from 'helmet';
import type { Request, RequestHandler } from 'express';

/**
 * The Content-Security-Policy the web app runs under, in `npm start` and at the gateway alike (the
 * gateway's config is generated from this). Scripts only from the app itself and YouTube's IFrame
 * player API (stream sessions with a v= URL); media, manifests and segments of a stream session
 * from any https host (a researcher may paste any direct media URL), plus http ones for local setups;
 * no plugins, no framing by other sites, forms only to the app.
 */
export const CONTENT_SECURITY_POLICY: Readonly<Record<string, readonly string[]>> = {
  'default-src': ["'self'"],
  'script-src': ["'self'", 'https://www.youtube.com', 'https://s.ytimg.com'],
  // React and react-select set inline styles; no inline script is ever allowed.
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:', 'blob:', 'https:'],
  'font-src': ["'self'", 'data:'],
  'media-src': ["'self'", 'blob:', 'https:', 'http:'],
  'connect-src': ["'self'", 'https:', 'http:', 'wss:', 'ws:'],
  'frame-src': ['https://www.youtube.com', 'https://www.youtube-nocookie.com'],
  'worker-src': ["'self'", 'blob:'],
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
};

/** The policy as one header value, as helmet writes it (for the gateway's add_header). */
export const contentSecurityPolicyHeader = (): string =>
  Object.entries(CONTENT_SECURITY_POLICY)
    .map(([directive, sources]) => `${directive} ${sources.join(' ')}`)
    .join(';');

/**
 * YouTube's player refuses to play for a page that sends no referrer, so the origin goes with
 * cross-site requests (never the path, which holds session ids).
 */
export const REFERRER_POLICY = 'strict-origin-when-cross-origin';

/**
 * The security headers of every answer (helmet): the CSP above, nosniff, the referrer policy,
 * frame-ancestors none (and X-Frame-Options for old browsers), no cross-origin opener; HSTS only
 * when the app is served over TLS (on http a browser ignores it, and it would pin localhost).
 * Cross-origin embedder isolation stays off: it would block the YouTube player.
 */
export function securityHeaders({ tls }: { tls: boolean }): RequestHandler {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: Object.fromEntries(
        Object.entries(CONTENT_SECURITY_POLICY).map(([name, sources]) => [name, [...sources]]),
      ),
    },
    crossOriginEmbedderPolicy: false,
    crossOriginResourcePolicy: { policy: 'same-origin' },
    referrerPolicy: { policy: REFERRER_POLICY },
    strictTransportSecurity: tls ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    xFrameOptions: { action: 'deny' },
  }) as RequestHandler;
}

/**
 * Whether the browser reached the app over TLS, for the Secure attribute of cookies: as for HSTS,
 * a PUBLIC_URL on https (npm start behind TLS); or the request's own scheme, which behind a proxy
 * trusted by TRUST_PROXY is its X-Forwarded-Proto (the gateway sets it).
 */
export const requestOverTls = (req: Request, publicUrl: string): boolean =>
  publicUrl.startsWith('https:') || req.secure;
