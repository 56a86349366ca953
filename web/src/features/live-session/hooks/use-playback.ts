import type { Prompt } from '@uis/proto';
import type { LiveConnection } from '@uis/live-client';
import { useCallback, useEffect, useRef, useState } from 'react';
import { PlaybackSync, type PlaybackRole } from '../../../playback/sync/playback-sync';
import type { PlayerAdapter } from '../../../playback/players/player';
import { PromptRunner } from '../../../playback/prompts/prompt-runner';

/**
 * The playback sync on the page's player and connection, while both exist. `blocked`: the browser
 * refused to start playback without a gesture; `resume` (from a click) starts it.
 */
export function usePlaybackSync(
  player: PlayerAdapter | null,
  connection: LiveConnection | null,
  sessionId: string,
  role: PlaybackRole,
) {
  const [blocked, setBlocked] = useState(false);
  const sync = useRef<PlaybackSync | null>(null);
  useEffect(() => {
    if (!player || !connection) return;
    const running = new PlaybackSync({
      player,
      link: connection,
      sessionId,
      role,
      onBlockedChange: setBlocked,
    });
    sync.current = running;
    running.start();
    return () => {
      running.stop();
      sync.current = null;
      setBlocked(false);
    };
  }, [player, connection, sessionId, role]);
  const resume = useCallback(() => sync.current?.resume(), []);
  return { blocked, resume };
}

/** The researcher's timed prompts on the page's player (null for participants: they fire none). */
export function usePromptRunner(
  player: PlayerAdapter | null,
  connection: LiveConnection | null,
  sessionId: string,
  prompts: readonly Prompt[] | undefined,
): void {
  const runner = useRef<PromptRunner | null>(null);
  const latest = useRef(prompts);
  latest.current = prompts;
  useEffect(() => {
    if (!player || !connection) return;
    const running = new PromptRunner({
      player,
      link: connection,
      sessionId,
      prompts: latest.current ?? [],
      sendMessage: (text) => connection.send(text),
    });
    runner.current = running;
    running.start();
    return () => {
      running.stop();
      runner.current = null;
    };
  }, [player, connection, sessionId]);
  useEffect(() => {
    if (prompts) runner.current?.setPrompts(prompts);
  }, [prompts]);
}
