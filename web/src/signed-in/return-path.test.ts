import { RETURN_PATH_MAX_CHARS } from '@uis/proto/browser';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { forgetReturnPath, rememberedReturnPath } from '../features/sign-in/remembered-return-path';
import {
  RETURN_PATH_KEEP_MS,
  rememberReturnPath,
  returnPathOf,
  returnPathState,
  safeReturnPath,
} from './return-path';

describe('safeReturnPath', () => {
  it('takes paths of this app, with their query', () => {
    for (const path of [
      '/join/abc',
      '/join/abc?PROLIFIC_PID=abc123&STUDY_ID=s1',
      '/liveSession/:3f2a',
      '/sessions',
      '/editSession/:3f2a#records',
    ]) {
      expect(safeReturnPath(path)).toBe(path);
    }
  });

  it('never follows another host, a scheme or anything but a path', () => {
    for (const value of [
      'https://evil.example/join/abc',
      '//evil.example/join',
      '/\\evil.example',
      '\\\\evil.example',
      'javascript:alert(1)',
      'join/abc',
      '/join/a b',
      '/join/\tabc',
      '',
      null,
      undefined,
      42,
      { path: '/join/abc' },
    ]) {
      expect(safeReturnPath(value)).toBeNull();
    }
  });

  it('refuses an overlong path', () => {
    const limit = `/join/${'a'.repeat(RETURN_PATH_MAX_CHARS - 6)}`;
    expect(safeReturnPath(limit)).toBe(limit);
    expect(safeReturnPath(`${limit}a`)).toBeNull();
  });

  it("never returns to the magic link's landing, which would spend its link again", () => {
    for (const path of ['/authcallback?email=a&token=b', '/AuthCallback', '/authcallback/']) {
      expect(safeReturnPath(path)).toBeNull();
    }
  });
});

describe('return path in history state', () => {
  it('reads back what returnPathState stored, and nothing from foreign or unsafe state', () => {
    expect(returnPathOf(returnPathState('/join/abc?PROLIFIC_PID=x'))).toBe('/join/abc?PROLIFIC_PID=x');
    expect(returnPathState(null)).toBeNull();
    for (const state of [
      null,
      undefined,
      'text',
      7,
      {},
      { returnPath: 'https://evil.example' },
      { returnPath: 7 },
    ]) {
      expect(returnPathOf(state)).toBeNull();
    }
  });
});

describe('remembered return path (a provider sign-in leaves the app)', () => {
  afterEach(() => localStorage.clear());

  it(`is kept for ${RETURN_PATH_KEEP_MS / 60_000} minutes, then forgotten`, () => {
    vi.useFakeTimers();
    rememberReturnPath('/join/abc?PROLIFIC_PID=x');
    vi.advanceTimersByTime(RETURN_PATH_KEEP_MS - 1);
    expect(rememberedReturnPath()).toBe('/join/abc?PROLIFIC_PID=x');
    vi.advanceTimersByTime(2);
    expect(rememberedReturnPath()).toBeNull();
  });

  it('is forgotten on request', () => {
    rememberReturnPath('/join/abc');
    forgetReturnPath();
    expect(rememberedReturnPath()).toBeNull();
  });

  it('ignores a tampered or malformed entry', () => {
    const until = Date.now() + 60_000;
    for (const stored of [
      'not json',
      'null',
      '"/join/abc"',
      JSON.stringify({ path: 'https://evil.example', until }),
      JSON.stringify({ path: '/join/abc', until: 'later' }),
      JSON.stringify({ path: '/join/abc' }),
    ]) {
      localStorage.setItem('uis.returnPath', stored);
      expect(rememberedReturnPath()).toBeNull();
    }
  });

  it('does without storage when the browser refuses it', () => {
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('full', 'QuotaExceededError');
    });
    vi.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
      throw new DOMException('denied', 'SecurityError');
    });
    vi.spyOn(Storage.prototype, 'removeItem').mockImplementation(() => {
      throw new DOMException('denied', 'SecurityError');
    });
    expect(() => rememberReturnPath('/join/abc')).not.toThrow();
    expect(rememberedReturnPath()).toBeNull();
    expect(() => forgetReturnPath()).not.toThrow();
  });
});
