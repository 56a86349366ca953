import { describe, expect, it } from 'vitest';
import { browserOf } from './browser-name';
import { CHECK_RESULT_TEXTS } from '../../../i18n/en/device-check';

describe('browserOf', () => {
  it.each([
    [
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.85 Safari/537.36',
      { name: 'Chrome', version: '131.0.6778.85' },
    ],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.70',
      { name: 'Edge', version: '131.0.2903.70' },
    ],
    [
      'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0',
      { name: 'Firefox', version: '128.0' },
    ],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
      { name: 'Safari', version: '17.5' },
    ],
    ['curl/8.0', { name: CHECK_RESULT_TEXTS.unknownBrowser, version: 'unknown' }],
  ])('reads %s', (userAgent, expected) => {
    expect(browserOf(userAgent)).toEqual(expected);
  });
});
