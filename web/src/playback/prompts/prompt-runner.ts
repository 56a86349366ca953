import { STATUS } from '@uis/proto/browser';
import type { Prompt } from '@uis/proto';
import type { LiveLink } from '../live-link';
import type { PlayerAdapter } from '../players/player';

/**
 * A prompt's second counts as reached when the player is this close to it: the timer that waits for
 * it and the video's clock are not the same clock.
 */
export const PROMPT_TOLERANCE_S = 0.005;

export interface PromptRunnerOptions {
  player: PlayerAdapter;
  link: Pick<LiveLink, 'ask'>;
  sessionId: string;
  prompts: readonly Prompt[];
  /** Sends the prompt's text as a chat message (the live connection's send). */
  sendMessage: (text: string) => Promise<unknown>;
}

/**
 * Timed prompts on the researcher's page (spec section 4): when playback crosses a prompt's second
 * while playing (a seek past it does not count), the server is asked whether it fires (`firePrompt`:
 * yes only the first time in this run of the session, whatever tabs or reloads), and when it does the
 * video pauses (the playback sync broadcasts the paused status), the prompt's text goes to the chat,
 * and with a duration above 0 the video plays again that many seconds later.
 *
 * It waits for the next prompt with a timer set from the position and the rate (so the pause lands
 * on the second, not a `timeupdate` later), and checks `timeupdate` too in case the timer ran late.
 */
export class PromptRunner {
  private prompts: Prompt[] = [];
  /** Prompts at or after this position are still ahead: where the last play or seek started from. */
  private armedFrom = 0;
  /** Prompts this page asked about already (the server remembers across pages). */
  private readonly asked = new Set<string>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private resumeTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly offs: Array<() => void> = [];
  private stopped = false;

  constructor(private readonly options: PromptRunnerOptions) {
    this.setPrompts(options.prompts);
  }

  start(): void {
    const { player } = this.options;
    this.armedFrom = player.currentTime();
    this.offs.push(
      player.on('play', () => {
        // The researcher played on before the prompt's duration ran out: nothing to resume.
        clearTimeout(this.resumeTimer);
        this.armFrom(player.currentTime());
      }),
      player.on('seeked', () => this.armFrom(player.currentTime())),
      player.on('ratechange', () => this.arm()),
      player.on('pause', () => clearTimeout(this.timer)),
      player.on('timeupdate', () => this.check()),
    );
    this.arm();
  }

  /** The session's prompts changed (the list was refetched). */
  setPrompts(prompts: readonly Prompt[]): void {
    this.prompts = [...prompts].sort((a, b) => a.time - b.time);
    if (this.offs.length > 0) this.arm();
  }

  stop(): void {
    this.stopped = true;
    for (const off of this.offs.splice(0)) off();
    clearTimeout(this.timer);
    clearTimeout(this.resumeTimer);
  }

  private armFrom(position: number): void {
    this.armedFrom = position;
    this.arm();
  }

  /** The first prompt still ahead. */
  private next(): Prompt | undefined {
    return this.prompts.find(
      (prompt) => !this.asked.has(prompt.prompt_id) && prompt.time >= this.armedFrom - PROMPT_TOLERANCE_S,
    );
  }

  /** Sets the timer for the next prompt, when playing. */
  private arm(): void {
    clearTimeout(this.timer);
    const { player } = this.options;
    if (this.stopped || player.paused()) return;
    const prompt = this.next();
    if (!prompt) return;
    const rate = player.playbackRate() || 1;
    const delayMs = Math.max(0, ((prompt.time - player.currentTime()) / rate) * 1000);
    this.timer = setTimeout(() => this.check(), delayMs);
  }

  /** Fires every prompt the playing video has reached since it was armed, then waits for the next. */
  private check(): void {
    const { player } = this.options;
    if (this.stopped || player.paused()) return;
    const position = player.currentTime();
    for (let prompt = this.next(); prompt; prompt = this.next()) {
      if (position < prompt.time - PROMPT_TOLERANCE_S) break;
      this.asked.add(prompt.prompt_id);
      void this.fire(prompt);
    }
    this.arm();
  }

  private async fire(prompt: Prompt): Promise<void> {
    const { link, sessionId, player, sendMessage } = this.options;
    let fire = false;
    try {
      const answer = await link.ask('firePrompt', {
        sessionId,
        promptId: prompt.prompt_id,
        videoTime: prompt.time,
      });
      fire = answer.status === STATUS.SUCCESS && answer.res.fire;
    } catch {
      // No answer: it may be asked again when playback crosses its second again.
      this.asked.delete(prompt.prompt_id);
    }
    if (!fire || this.stopped) return;
    player.pause();
    const text = prompt.prompt.trim();
    if (text) await sendMessage(prompt.prompt).catch(() => undefined);
    if (prompt.duration > 0 && !this.stopped) {
      clearTimeout(this.resumeTimer);
      this.resumeTimer = setTimeout(() => {
        player.play().catch(() => undefined);
      }, prompt.duration * 1000);
    }
  }
}
