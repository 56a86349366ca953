/**
 * Debian's Chromium as every browser test and benchmark drives it, headless on these machines: no
 * sandbox, GPU, QUIC or background traffic. web/e2e imports it too (no imports here, so it compiles
 * under web's settings as well).
 */
export const CHROMIUM = '/usr/bin/chromium';

export const CHROMIUM_ARGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
