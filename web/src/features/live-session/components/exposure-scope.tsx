import type { ClientExposureEvent, ClientExposureKind } from '@uis/proto';
import { ExposureOutbox, type ExposureStore } from '@uis/live-client';
import type { LiveConnection } from '@uis/live-client';
import { createContext, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';

/** What a participant's page records of what they were exposed to (the exposure log). */
export interface ExposureRecorder {
  record(kind: ClientExposureKind): void;
  /** Where the participant's player is, for every event from now on (null: no player). */
  setVideoTime(read: (() => number) | null): void;
}

const ExposureContext = createContext<ExposureRecorder | null>(null);

/** The page's exposure recorder, or null (the researcher's page, or not connected yet). */
export const useExposure = (): ExposureRecorder | null => useContext(ExposureContext);

/** Unsent events kept for the tab, so a reload sends them (each event's id keeps them single). */
function tabStore(sessionId: string): ExposureStore {
  const key = `uis:exposure:${sessionId}`;
  return {
    load() {
      try {
        const kept: unknown = JSON.parse(sessionStorage.getItem(key) ?? '[]');
        return Array.isArray(kept) ? (kept as ClientExposureEvent[]) : [];
      } catch {
        return [];
      }
    },
    save(events) {
      try {
        if (events.length === 0) sessionStorage.removeItem(key);
        else sessionStorage.setItem(key, JSON.stringify(events));
      } catch {
        // Not kept across a reload; still sent from memory.
      }
    },
  };
}

/**
 * Records a participant's exposure on their page: the tab hidden and shown, fullscreen entered and
 * left, and (through useExposure) what the player adds. Events go to realtime in batches through
 * the live client's ExposureOutbox; sent at once when the tab is hidden (a phone may end the page
 * then). Disabled, it records nothing (the researcher's page).
 */
export function ExposureScope({
  connection,
  sessionId,
  enabled,
  children,
}: {
  connection: LiveConnection | null;
  sessionId: string;
  enabled: boolean;
  children: ReactNode;
}) {
  const videoTime = useRef<(() => number) | null>(null);
  const [outbox, setOutbox] = useState<ExposureOutbox | null>(null);
  useEffect(() => {
    if (!enabled || !connection) return;
    const box = new ExposureOutbox(connection, sessionId, { store: tabStore(sessionId) });
    const record = (kind: ClientExposureKind) => box.record(kind, videoTime.current?.() ?? null);
    if (document.visibilityState === 'hidden') record('hidden');
    const onVisibility = () => {
      const hidden = document.visibilityState === 'hidden';
      record(hidden ? 'hidden' : 'visible');
      if (hidden) void box.flush();
    };
    const onFullscreen = () => record(document.fullscreenElement ? 'fullscreen_enter' : 'fullscreen_exit');
    document.addEventListener('visibilitychange', onVisibility);
    document.addEventListener('fullscreenchange', onFullscreen);
    box.start();
    setOutbox(box);
    return () => {
      document.removeEventListener('visibilitychange', onVisibility);
      document.removeEventListener('fullscreenchange', onFullscreen);
      void box.flush();
      box.stop();
      setOutbox(null);
    };
  }, [enabled, connection, sessionId]);
  const recorder = useMemo<ExposureRecorder | null>(
    () =>
      outbox && {
        record: (kind) => outbox.record(kind, videoTime.current?.() ?? null),
        setVideoTime: (read) => {
          videoTime.current = read;
        },
      },
    [outbox],
  );
  return <ExposureContext.Provider value={recorder}>{children}</ExposureContext.Provider>;
}
