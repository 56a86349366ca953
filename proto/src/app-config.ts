/**
 * The web app's run-time settings: spec section 7's build-time settings (the API host, the realtime
 * server, the signalling server, a Google sign-in client id), read when the app starts instead, so
 * one build serves `npm start`, `npm run stack` and every deployment. Whatever serves the app serves
 * them at APP_CONFIG_PATH, from the variables in APP_CONFIG_ENV; an empty value means "this origin"
 * (or, for the client id, "no Google sign-in"). Zod-free: the browser reads it too.
 */

export const APP_CONFIG_PATH = '/app-config.json';

export interface AppConfig {
  /** Where proto's REST routes and the videos answer (https://api.example.edu); '' = the app's origin. */
  apiUrl: string;
  /** Where realtime's socket.io answers; '' = the app's origin. */
  realtimeUrl: string;
  /** Where signal's PeerJS answers; '' = the app's origin. */
  signalUrl: string;
  /** The OAuth client id of Google sign-in; '' = off. */
  googleClientId: string;
}

export const DEFAULT_APP_CONFIG: Readonly<AppConfig> = {
  apiUrl: '',
  realtimeUrl: '',
  signalUrl: '',
  googleClientId: '',
};

/** The variable that sets each field where the app is served (README: configuration). */
export const APP_CONFIG_ENV: Readonly<Record<keyof AppConfig, string>> = {
  apiUrl: 'WEB_API_URL',
  realtimeUrl: 'WEB_REALTIME_URL',
  signalUrl: 'WEB_SIGNAL_URL',
  googleClientId: 'GOOGLE_CLIENT_ID',
};

/** An http(s) URL without query or fragment, its trailing slash removed; null when it is not one. */
function baseUrl(value: string): string | null {
  try {
    const url = new URL(value);
    if (!/^https?:$/.test(url.protocol) || url.search || url.hash || url.username) return null;
    return url.toString().replace(/\/$/, '');
  } catch {
    return null;
  }
}

const FIELD_RULES: Record<keyof AppConfig, (value: string) => string | null> = {
  apiUrl: baseUrl,
  realtimeUrl: baseUrl,
  signalUrl: baseUrl,
  // Google's client ids: digits, a dash, letters and digits, then .apps.googleusercontent.com.
  googleClientId: (value) => (/^[\w.-]{1,200}$/.test(value) ? value : null),
};

/**
 * The settings in `input` (a served JSON document, or the environment's values by field), each
 * checked; a field that is absent or empty keeps its default, one that is wrong is named in
 * `problems` and keeps its default too, so a bad setting never stops the app from starting.
 */
export function readAppConfig(
  input: unknown,
  nameOf: (field: keyof AppConfig) => string = (field) => field,
): { config: AppConfig; problems: string[] } {
  const config: AppConfig = { ...DEFAULT_APP_CONFIG };
  const problems: string[] = [];
  const record = typeof input === 'object' && input !== null ? (input as Record<string, unknown>) : {};
  for (const field of Object.keys(FIELD_RULES) as (keyof AppConfig)[]) {
    const value = record[field];
    if (value === undefined || value === null || value === '') continue;
    const checked = typeof value === 'string' ? FIELD_RULES[field](value.trim()) : null;
    if (checked === null) problems.push(`${nameOf(field)}: ${JSON.stringify(value)} is not valid`);
    else config[field] = checked;
  }
  return { config, problems };
}

/** The settings the environment gives (APP_CONFIG_ENV), for the servers that serve the app. */
export function appConfigFromEnv(env: Record<string, string | undefined>): {
  config: AppConfig;
  problems: string[];
} {
  const fields = Object.keys(APP_CONFIG_ENV) as (keyof AppConfig)[];
  const byField = Object.fromEntries(fields.map((field) => [field, env[APP_CONFIG_ENV[field]]]));
  return readAppConfig(byField, (field) => APP_CONFIG_ENV[field]);
}
