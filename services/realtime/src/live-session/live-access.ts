/** The access client realtime checks every event with: studies' answers, cached briefly (README). */
export const LIVE_ACCESS = Symbol('LIVE_ACCESS');
