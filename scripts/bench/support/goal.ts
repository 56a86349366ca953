/**
 * One goal of the performance issue's table (P1..P11), as the suite reports it: what was measured,
 * the figure, and whether it meets the goal. A goal that could not be measured is a miss with the
 * reason as its figure, never a silent gap.
 */
export interface GoalResult {
  id: string;
  /** What is measured, a few words ("chat fan-out p99, 2,000 sockets"). */
  what: string;
  /** The goal in words ("<= 3x bare and <= 50 ms; 0 lost"). */
  goal: string;
  /** The measured figure in words ("31 ms vs bare 12 ms (2.6x); 0 lost"). */
  measured: string;
  pass: boolean;
  /** Markdown for docs/benchmarks.md: rows per round, what limits a miss, the profile. */
  details?: string;
  /** The command that runs this goal alone. */
  reproduce: string;
}

export interface BenchContext {
  /** The repository's root. */
  repo: string;
  /** A scratch folder of this run (removed at the end). */
  scratch: string;
  /** Progress lines on the terminal. */
  log: (message: string) => void;
}

/** A module of the suite: the goals it measures, in one run of its own processes. */
export interface GoalGroup {
  ids: readonly string[];
  run(context: BenchContext): Promise<GoalResult[]>;
}

/** When a group throws, each of its goals is reported as a miss with the reason. */
export const unmeasured = (group: GoalGroup, error: unknown): GoalResult[] =>
  group.ids.map((id) => ({
    id,
    what: '(not measured)',
    goal: '',
    measured: `failed: ${error instanceof Error ? error.message : String(error)}`.slice(0, 300),
    pass: false,
    reproduce: `BENCH_ONLY=${id} npm run bench`,
  }));
