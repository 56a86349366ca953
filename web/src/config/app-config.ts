import { APP_CONFIG_PATH, DEFAULT_APP_CONFIG, readAppConfig, type AppConfig } from '@uis/proto/browser';

/**
 * The settings this deployment serves at /app-config.json (proto's AppConfig), read once before the
 * app renders. Without the file (`npm run dev`, an older gateway) or when it cannot be read, every
 * setting keeps its default: this origin for the API, realtime and signalling, no Google sign-in.
 */
let current: AppConfig = { ...DEFAULT_APP_CONFIG };

export async function loadAppConfig(fetchImpl: typeof fetch = fetch): Promise<AppConfig> {
  current = { ...DEFAULT_APP_CONFIG };
  try {
    const response = await fetchImpl(APP_CONFIG_PATH, {
      cache: 'no-store',
      headers: { accept: 'application/json' },
    });
    if (response.ok) {
      const { config, problems } = readAppConfig(await response.json());
      for (const problem of problems) console.warn(`${APP_CONFIG_PATH}: ignoring ${problem}`);
      current = config;
    }
  } catch {
    // Unreadable or not JSON: the defaults serve the common case, the app on the API's own origin.
  }
  return current;
}

export const appConfig = (): Readonly<AppConfig> => current;

/** A path of the API (a route, a video) as the browser must ask for it: on the API's host when it has its own. */
export const apiUrl = (path: string): string => `${current.apiUrl}${path}`;
