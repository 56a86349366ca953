import {
  LOGIN_PROGRESS_CAP,
  LOGIN_PROGRESS_DONE,
  LOGIN_PROGRESS_IDLE_DELAY_MS,
  LOGIN_PROGRESS_INTERVAL_MS,
  LOGIN_PROGRESS_STEP,
} from '../../../config/ui-constants';
import { useCallback, useEffect, useRef, useState } from 'react';

export interface Progress {
  /** The percentage while busy (0 to 100), or null when idle. */
  percent: number | null;
  /** Runs `task` while the percentage rises; answers (or throws) what the task does. */
  track: <T>(task: () => Promise<T>) => Promise<T>;
}

/**
 * The login button's progress (spec sections 4 and 9): from 0 it rises 15 points every 500 ms,
 * never past 99 while the task runs; when it settles it shows 100, then is idle again 200 ms later.
 * The task's real progress is unknown, so this only tells the user something is happening.
 */
export function useProgress(): Progress {
  const [percent, setPercent] = useState<number | null>(null);
  const ticker = useRef<ReturnType<typeof setInterval>>(undefined);
  const idleTimer = useRef<ReturnType<typeof setTimeout>>(undefined);

  const stopTimers = useCallback(() => {
    clearInterval(ticker.current);
    clearTimeout(idleTimer.current);
  }, []);
  useEffect(() => stopTimers, [stopTimers]);

  const track = useCallback(
    async <T>(task: () => Promise<T>): Promise<T> => {
      stopTimers();
      setPercent(0);
      ticker.current = setInterval(
        () => setPercent((value) => Math.min((value ?? 0) + LOGIN_PROGRESS_STEP, LOGIN_PROGRESS_CAP)),
        LOGIN_PROGRESS_INTERVAL_MS,
      );
      try {
        return await task();
      } finally {
        clearInterval(ticker.current);
        setPercent(LOGIN_PROGRESS_DONE);
        idleTimer.current = setTimeout(() => setPercent(null), LOGIN_PROGRESS_IDLE_DELAY_MS);
      }
    },
    [stopTimers],
  );

  return { percent, track };
}
