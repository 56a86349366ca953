/** How long the camera may take to show a frame, and the microphone to hear something. */
export const CAMERA_WITHIN_MS = 6_000;
export const MICROPHONE_WITHIN_MS = 6_000;
/** The level (RMS of the samples, 0 to 1) above which the microphone counts as hearing something. */
export const HEARD_LEVEL = 0.01;

/** Resolves true once the element shows a frame with a size, false after `withinMs`. */
export function firstFrame(video: HTMLVideoElement, withinMs = CAMERA_WITHIN_MS): Promise<boolean> {
  return new Promise((resolve) => {
    const shows = () => video.readyState >= 2 && video.videoWidth > 0;
    if (shows()) return resolve(true);
    const timer = setTimeout(() => finish(false), withinMs);
    const onData = () => {
      if (shows()) finish(true);
    };
    const finish = (ok: boolean) => {
      clearTimeout(timer);
      video.removeEventListener('loadeddata', onData);
      video.removeEventListener('resize', onData);
      resolve(ok);
    };
    video.addEventListener('loadeddata', onData);
    video.addEventListener('resize', onData);
  });
}

/** The microphone's level as it is now (RMS of the analyser's samples, 0 to 1). */
export function levelOf(analyser: AnalyserNode, samples: Float32Array<ArrayBuffer>): number {
  analyser.getFloatTimeDomainData(samples);
  let sum = 0;
  for (const sample of samples) sum += sample * sample;
  return Math.sqrt(sum / samples.length);
}

/** A short 440 Hz tone through the speakers, faded in and out so it does not click; resolves when it ends. */
export function playTestTone(context: AudioContext, seconds = 1.2): Promise<void> {
  const oscillator = context.createOscillator();
  const gain = context.createGain();
  const start = context.currentTime;
  oscillator.frequency.value = 440;
  gain.gain.setValueAtTime(0, start);
  gain.gain.linearRampToValueAtTime(0.3, start + 0.05);
  gain.gain.setValueAtTime(0.3, start + seconds - 0.1);
  gain.gain.linearRampToValueAtTime(0, start + seconds);
  oscillator.connect(gain).connect(context.destination);
  return new Promise((resolve) => {
    oscillator.onended = () => {
      gain.disconnect();
      resolve();
    };
    oscillator.start(start);
    oscillator.stop(start + seconds);
  });
}
