import { CHROMIUM_ARGS } from '../../../web/e2e/support/paths';

/** The e2e's switches, and autoplay without a gesture as in the live specs (no camera: video sessions have no call). */
export const BENCH_CHROMIUM_ARGS: readonly string[] = [
  ...CHROMIUM_ARGS,
  '--autoplay-policy=no-user-gesture-required',
];
