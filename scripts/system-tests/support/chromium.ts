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

/** What a live session or call adds: fake camera and microphone without a prompt, loopback ICE, sound without a click. */
export const CHROMIUM_MEDIA_ARGS: readonly string[] = [
  '--use-fake-device-for-media-stream',
  '--use-fake-ui-for-media-stream',
  '--allow-loopback-in-peer-connection',
  '--autoplay-policy=no-user-gesture-required',
];
