import { DEFAULT_APP_CONFIG } from '@uis/proto/browser';
import { describe, expect, it, vi } from 'vitest';
import { apiUrl, appConfig, loadAppConfig } from './app-config';

const answering = (status: number, body: unknown) =>
  vi.fn<typeof fetch>(() => Promise.resolve(new Response(JSON.stringify(body), { status })));

describe('the run-time settings', () => {
  it('reads /app-config.json, uncached, and puts API paths on the API host it names', async () => {
    const fetchImpl = answering(200, { apiUrl: 'https://api.uni.example/', googleClientId: 'abc-1' });
    await loadAppConfig(fetchImpl);
    expect(fetchImpl).toHaveBeenCalledWith(
      '/app-config.json',
      expect.objectContaining({ cache: 'no-store' }),
    );
    expect(appConfig()).toEqual({
      ...DEFAULT_APP_CONFIG,
      apiUrl: 'https://api.uni.example',
      googleClientId: 'abc-1',
    });
    expect(apiUrl('/getGroups')).toBe('https://api.uni.example/getGroups');
  });

  it('keeps the defaults when the file is missing, unreadable or wrong', async () => {
    await loadAppConfig(answering(404, { message: 'not found' }));
    expect(appConfig()).toEqual(DEFAULT_APP_CONFIG);
    await loadAppConfig(vi.fn<typeof fetch>(() => Promise.reject(new TypeError('offline'))));
    expect(appConfig()).toEqual(DEFAULT_APP_CONFIG);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await loadAppConfig(answering(200, { apiUrl: 'javascript:alert(1)' }));
    expect(appConfig()).toEqual(DEFAULT_APP_CONFIG);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('apiUrl'));
    expect(apiUrl('/getGroups')).toBe('/getGroups');
  });
});
