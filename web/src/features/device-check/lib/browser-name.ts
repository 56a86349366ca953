import { CHECK_RESULT_TEXTS } from '../../../i18n/en/device-check';

/** The browser's name and version, read from its user agent (the order matters: Edge and Opera say Chrome too). */
const BROWSERS: readonly [name: string, pattern: RegExp][] = [
  ['Edge', /Edg(?:e|A|iOS)?\/([\d.]+)/],
  ['Opera', /OPR\/([\d.]+)/],
  ['Samsung Internet', /SamsungBrowser\/([\d.]+)/],
  ['Firefox', /(?:Firefox|FxiOS)\/([\d.]+)/],
  ['Chrome', /(?:Chrome|CriOS)\/([\d.]+)/],
  ['Safari', /Version\/([\d.]+).*Safari\//],
];

export interface BrowserName {
  name: string;
  version: string;
}

export function browserOf(userAgent: string): BrowserName {
  for (const [name, pattern] of BROWSERS) {
    const match = pattern.exec(userAgent);
    if (match) return { name, version: match[1]! };
  }
  return { name: CHECK_RESULT_TEXTS.unknownBrowser, version: CHECK_RESULT_TEXTS.unknownVersion };
}
