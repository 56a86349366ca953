import { allowedOriginsEnv, allowedOriginsOf, serviceEnv } from '@uis/kit';
import { IceServer } from '@uis/proto';
import { z } from 'zod';

const ICE_SERVERS_SHAPE =
  'must be a JSON array of RTCIceServer objects, e.g. [{"urls":"stun:stun.example.org:3478"}]';

/** ICE_SERVERS: JSON text; unset or blank means no STUN/TURN servers (peers on one network only). */
const iceServers = z
  .string()
  .optional()
  .transform((text, ctx): unknown => {
    if (text === undefined || text.trim() === '') return [];
    try {
      return JSON.parse(text);
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: `${ICE_SERVERS_SHAPE} (${(error as Error).message})` });
      return z.NEVER;
    }
  })
  .pipe(z.array(IceServer, { error: ICE_SERVERS_SHAPE }));

/** Signal's environment (every variable is in the README's configuration table). */
export const signalEnv = serviceEnv
  .merge(allowedOriginsEnv)
  .extend({ ICE_SERVERS: iceServers })
  .transform((config) => ({ ...config, allowedOrigins: allowedOriginsOf(config) }));
export type SignalConfig = z.output<typeof signalEnv>;

export const SIGNAL_CONFIG = Symbol('SIGNAL_CONFIG');
