import { DEFAULT_APP_CONFIG } from '@uis/proto/browser';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadAppConfig } from '../config/app-config';
import { tokens } from './tokens';

const set = (cookie: string) => {
  document.cookie = `${cookie}; path=/`;
};
const names = () =>
  document.cookie
    .split(';')
    .map((pair) => pair.trim().split('=')[0])
    .filter(Boolean);

describe('tokens: what this page knows of its sign-in', () => {
  afterEach(async () => {
    for (const name of names()) document.cookie = `${name}=; path=/; max-age=0`;
    await loadAppConfig(() => Promise.reject(new Error('none')));
  });

  it('reads the signed-in marker auth sets: signed in, and when the access token expires', () => {
    expect(tokens.present()).toBe(false);
    expect(tokens.accessExpiresAt()).toBeNull();
    set('signedIn=1900000000');
    expect(tokens.present()).toBe(true);
    expect(tokens.accessExpiresAt()).toBe(1_900_000_000_000);
  });

  it('tells an access token about to expire; an unknown expiry is left to the server', () => {
    const now = 1_900_000_000_000;
    expect(tokens.expiresWithin(30_000, now)).toBe(false);
    set('signedIn=1900000020');
    expect(tokens.expiresWithin(30_000, now)).toBe(true);
    expect(tokens.expiresWithin(10_000, now)).toBe(false);
    set('signedIn=not-a-time');
    expect(tokens.accessExpiresAt()).toBeNull();
    expect(tokens.expiresWithin(30_000, now)).toBe(false);
  });

  it('counts token cookies a script can see (set before the server kept them HttpOnly) as maybe signed in', () => {
    set('refreshToken=old-readable');
    expect(tokens.present()).toBe(true);
  });

  it('cannot see the cookies of an API on another host: asks it', async () => {
    const config = { ...DEFAULT_APP_CONFIG, apiUrl: 'https://api.example.org' };
    await loadAppConfig(() => Promise.resolve(new Response(JSON.stringify(config))));
    expect(tokens.present()).toBe(true);
  });

  it('forgets the marker and readable token cookies, and writes no token anywhere', () => {
    const write = vi.spyOn(Document.prototype, 'cookie', 'set');
    set('signedIn=1900000000');
    set('accessToken=old-readable');
    write.mockClear();
    tokens.clear();
    expect(names()).toEqual([]);
    expect(tokens.present()).toBe(false);
    for (const [cookie] of write.mock.calls) expect(cookie).toMatch(/^\w+=; Path=\/; Max-Age=0$/);
  });
});
