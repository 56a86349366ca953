import { allowedOriginsEnv, allowedOriginsOf, envVars, serviceEnv } from '@uis/kit';
import { ICE_TRANSPORT_POLICIES, IceServer } from '@uis/proto';
import { z } from 'zod';

const ICE_SERVERS_SHAPE =
  'must be a JSON array of RTCIceServer objects, e.g. [{"urls":"stun:stun.example.org:3478"}]';

/** ICE_SERVERS: JSON text; unset or blank means the defaults (null here), `[]` means none. */
const iceServers = z
  .string()
  .optional()
  .transform((text, ctx): unknown => {
    if (text === undefined || text.trim() === '') return null;
    try {
      return JSON.parse(text);
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: `${ICE_SERVERS_SHAPE} (${(error as Error).message})` });
      return z.NEVER;
    }
  })
  .pipe(z.array(IceServer, { error: ICE_SERVERS_SHAPE }).nullable());

const TURN_URL = /^turns?:[^\s,]+$/;

/** TURN_URLS: the deployment's own TURN server, comma-separated `turn:`/`turns:` URLs; blank: none. */
const turnUrls = z
  .string()
  .optional()
  .transform((text) =>
    (text ?? '')
      .split(',')
      .map((url) => url.trim())
      .filter(Boolean),
  )
  .pipe(z.array(z.string().regex(TURN_URL, 'must be turn: or turns: URLs, comma-separated')));

/** The shared secret of coturn's `static-auth-secret`: unset or blank when there is no TURN server of ours. */
const turnSecret = z
  .string()
  .optional()
  .transform((text) => (text?.trim() ? text : undefined))
  .pipe(envVars.secret().optional());

/**
 * How long a caller's TURN credentials work: about a session's length. They cannot be revoked (coturn
 * checks only their HMAC and expiry), so this is how long they outlive a logout or a removal from the
 * scope; the page renews them while it may (a relayed call longer than this calls again once).
 */
export const TURN_CREDENTIAL_TTL_DEFAULT_SECONDS = 60 * 60;

/** Signal's environment (every variable is in docs/configuration.md). */
export const signalEnv = serviceEnv
  .merge(allowedOriginsEnv)
  .extend({
    ICE_SERVERS: iceServers,
    TURN_URLS: turnUrls,
    TURN_SECRET: turnSecret,
    TURN_CREDENTIAL_TTL_SECONDS: z.coerce
      .number({ error: 'must be a number of seconds' })
      .int('must be a whole number of seconds')
      .min(60, 'must be at least 60 seconds')
      .max(7 * 24 * 60 * 60, 'must be at most a week (604800 seconds)')
      .default(TURN_CREDENTIAL_TTL_DEFAULT_SECONDS),
    ICE_TRANSPORT_POLICY: z
      .enum(ICE_TRANSPORT_POLICIES, { error: `must be ${ICE_TRANSPORT_POLICIES.join(' or ')}` })
      .default('all'),
  })
  .superRefine((config, ctx) => {
    // One without the other is a TURN server nobody can use, or a secret for no server.
    if (config.TURN_URLS.length > 0 && !config.TURN_SECRET) {
      ctx.addIssue({
        code: 'custom',
        path: ['TURN_SECRET'],
        message: "is required with TURN_URLS (coturn's static-auth-secret, at least 32 characters)",
      });
    }
    if (config.TURN_SECRET && config.TURN_URLS.length === 0) {
      ctx.addIssue({ code: 'custom', path: ['TURN_URLS'], message: 'is required with TURN_SECRET' });
    }
    const anyTurn =
      config.TURN_URLS.length > 0 ||
      config.ICE_SERVERS === null ||
      config.ICE_SERVERS.some((server) => [server.urls].flat().some((url) => url.startsWith('turn')));
    if (config.ICE_TRANSPORT_POLICY === 'relay' && !anyTurn) {
      ctx.addIssue({
        code: 'custom',
        path: ['ICE_TRANSPORT_POLICY'],
        message: 'relay needs a TURN server: set TURN_URLS, or a TURN server in ICE_SERVERS',
      });
    }
  })
  .transform((config) => ({ ...config, allowedOrigins: allowedOriginsOf(config) }));
export type SignalConfig = z.output<typeof signalEnv>;

export const SIGNAL_CONFIG = Symbol('SIGNAL_CONFIG');
