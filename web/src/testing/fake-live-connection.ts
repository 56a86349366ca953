import type { ConnectionStatus, LiveConnection, LiveProblem } from '@uis/live-client';

type State = { status: ConnectionStatus; accessEnded: string | null; problem: LiveProblem | null };
type Handler = (payload: never) => void;

/**
 * A stand-in for the live client's LiveConnection as the live modules use it: its state (changed by the
 * test with setState), the server's events (sent by the test with serverSends), and what the
 * client asked (`asked`, each answered SUCCESS at once: with what `answers` makes of it, else null).
 */
export function fakeLiveConnection(answers: Record<string, (payload: unknown) => unknown> = {}) {
  let state: State = { status: 'connected', accessEnded: null, problem: null };
  const listeners = new Set<(value: State) => void>();
  const handlers = new Map<string, Set<Handler>>();
  const asked: [string, unknown][] = [];
  const connection = {
    /** The server's clock: this machine's (the playback sync and presence reports read it). */
    clock: { now: () => Date.now() },
    get state() {
      return state;
    },
    subscribe(listener: (value: State) => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    on(event: string, handler: Handler) {
      const set = handlers.get(event) ?? new Set<Handler>();
      set.add(handler);
      handlers.set(event, set);
      return () => set.delete(handler);
    },
    ask(event: string, payload: unknown) {
      asked.push([event, payload]);
      return Promise.resolve({ status: 'SUCCESS', res: answers[event]?.(payload) ?? null });
    },
  };
  return {
    connection: connection as unknown as LiveConnection,
    asked,
    asks: (event: string) => asked.filter(([name]) => name === event).map(([, payload]) => payload),
    serverSends(event: string, payload: unknown) {
      for (const handler of handlers.get(event) ?? []) (handler as (payload: unknown) => void)(payload);
    },
    setState(change: Partial<State>) {
      state = { ...state, ...change };
      for (const listener of listeners) listener(state);
    },
    /** Handlers and state listeners still registered (0 once everything was let go). */
    listening: () => [...handlers.values()].reduce((count, set) => count + set.size, 0) + listeners.size,
  };
}
