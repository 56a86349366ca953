import { STATUS } from '@uis/proto/browser';
import type { Prompt } from '@uis/proto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PROMPT_TOLERANCE_S, PromptRunner } from './prompt-runner';
import { FakeLink, FakePlayer } from '../testing/fakes';

const sessionId = '6f1c2a8e-1d7b-4c1e-9a55-0b9f3f1e2d10';
const wait = (ms: number) => vi.advanceTimersByTimeAsync(ms);

const prompt = (time: number, text: string, duration = 0): Prompt => ({
  prompt_id: `00000000-0000-4000-8000-${String(time).padStart(12, '0')}`,
  time,
  duration,
  prompt: text,
});

function setup(prompts: Prompt[], fire: (promptId: string) => boolean = () => true) {
  const player = new FakePlayer();
  const link = new FakeLink();
  link.answers.firePrompt = (payload) => ({
    status: STATUS.SUCCESS,
    res: { fire: fire((payload as { promptId: string }).promptId) },
  });
  const messages: string[] = [];
  /** Where the video was each time it paused. */
  const pausedAt: number[] = [];
  player.on('pause', () => pausedAt.push(player.currentTime()));
  const runner = new PromptRunner({
    player,
    link,
    sessionId,
    prompts,
    sendMessage: (text) => {
      messages.push(text);
      return Promise.resolve();
    },
  });
  runner.start();
  return { player, link, runner, messages, pausedAt };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('PromptRunner', () => {
  it("pauses on the prompt's second, sends its text, and plays again after its duration", async () => {
    const { player, link, runner, messages, pausedAt } = setup([prompt(2, 'What do you see?', 3)]);
    await player.play();
    await wait(1999);
    expect(link.sentOf('firePrompt')).toEqual([]);
    await wait(1);
    expect(link.sentOf('firePrompt')).toEqual([
      { sessionId, promptId: prompt(2, '').prompt_id, videoTime: 2 },
    ]);
    expect(player.paused()).toBe(true);
    expect(pausedAt[0]).toBeCloseTo(2, 2);
    expect(messages).toEqual(['What do you see?']);

    await wait(2999);
    expect(player.paused()).toBe(true);
    await wait(1);
    expect(player.paused()).toBe(false);
    // It does not fire again as playback goes on from there.
    await wait(5000);
    expect(link.sentOf('firePrompt')).toHaveLength(1);
    expect(messages).toHaveLength(1);
    runner.stop();
  });

  it('lands on the second at any rate', async () => {
    const { player, runner, pausedAt } = setup([prompt(6, 'Halfway')]);
    player.setPlaybackRate(2);
    await player.play();
    await wait(3000);
    expect(pausedAt).toHaveLength(1);
    expect(Math.abs((pausedAt[0] ?? 0) - 6)).toBeLessThanOrEqual(PROMPT_TOLERANCE_S);
    runner.stop();
  });

  it('does nothing when the server says it fired already (another tab, or before a reload)', async () => {
    const { player, link, runner, messages } = setup([prompt(1, 'Once')], () => false);
    await player.play();
    await wait(3000);
    expect(link.sentOf('firePrompt')).toHaveLength(1);
    expect(player.paused()).toBe(false);
    expect(messages).toEqual([]);
    runner.stop();
  });

  it('does not fire a prompt that a seek jumps over, but does when playback crosses it after a seek back', async () => {
    const { player, link, runner } = setup([prompt(5, 'Five')]);
    await player.play();
    await wait(1000);
    player.seek(8);
    await wait(3000);
    expect(link.sentOf('firePrompt')).toEqual([]);
    player.seek(4);
    await wait(0);
    await wait(1100);
    expect(link.sentOf('firePrompt')).toHaveLength(1);
    expect(player.paused()).toBe(true);
    runner.stop();
  });

  it('does not fire while paused, nor when the video is sought onto a later second while paused', async () => {
    const { player, link, runner } = setup([prompt(3, 'Three')]);
    player.seek(3.5);
    await wait(5000);
    await player.play();
    await wait(2000);
    expect(link.sentOf('firePrompt')).toEqual([]);
    runner.stop();
  });

  it('stays paused when the duration is 0, and sends no message for a blank prompt', async () => {
    const { player, runner, messages } = setup([prompt(1, '   ', 0)]);
    await player.play();
    await wait(1000);
    expect(player.paused()).toBe(true);
    await wait(60_000);
    expect(player.paused()).toBe(true);
    expect(messages).toEqual([]);
    runner.stop();
  });

  it('forgets the pending resume when the researcher plays on first', async () => {
    const { player, runner } = setup([prompt(1, 'Think', 5)]);
    await player.play();
    await wait(1000);
    expect(player.paused()).toBe(true);
    await player.play();
    await wait(1000);
    player.pause();
    await wait(10_000);
    // The researcher's own pause holds: the prompt's timer did not play the video again.
    expect(player.paused()).toBe(true);
    runner.stop();
  });

  it('fires each prompt in turn, and takes new prompts when the list changes', async () => {
    const { player, link, runner, messages } = setup([prompt(1, 'One', 1), prompt(4, 'Four', 1)]);
    await player.play();
    await wait(10_000);
    expect(messages).toEqual(['One', 'Four']);
    runner.setPrompts([prompt(1, 'One', 1), prompt(4, 'Four', 1), prompt(12, 'Twelve')]);
    await wait(10_000);
    expect(messages).toEqual(['One', 'Four', 'Twelve']);
    expect(link.sentOf('firePrompt')).toHaveLength(3);
    runner.stop();
  });

  it('asks again at the next crossing when the server did not answer', async () => {
    const { player, link, runner } = setup([prompt(1, 'Again')]);
    let answered = false;
    link.answers.firePrompt = () => {
      if (!answered) {
        answered = true;
        return Promise.reject(new Error('timeout'));
      }
      return { status: STATUS.SUCCESS, res: { fire: true } };
    };
    await player.play();
    await wait(2000);
    expect(player.paused()).toBe(false);
    player.seek(0);
    await wait(1500);
    expect(link.sentOf('firePrompt')).toHaveLength(2);
    expect(player.paused()).toBe(true);
    runner.stop();
  });
});
