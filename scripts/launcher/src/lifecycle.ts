/** Thrown inside the start sequence when Ctrl-C arrives before it is done. */
export class StopRequested extends Error {
  override name = 'StopRequested';
  constructor() {
    super('Stop requested while starting');
  }
}

interface Step {
  name: string;
  stop: () => Promise<void> | void;
  timeoutMs: number;
}

/**
 * What the embedded process has started, stopped in reverse order: the HTTP servers before the apps
 * that serve them, the apps before the databases they use. Each step has a time limit, so a stuck
 * one cannot keep Postgres running forever.
 */
export class Lifecycle {
  private readonly steps: Step[] = [];
  private stopping: Promise<void> | undefined;
  private resolveStopRequest!: (reason: string) => void;
  private stopReason: string | undefined;

  /** Settles with the reason (a signal name) once a stop is requested. */
  readonly stopRequested = new Promise<string>((resolve) => {
    this.resolveStopRequest = resolve;
  });

  constructor(private readonly log: (message: string) => void) {}

  get isStopRequested(): boolean {
    return this.stopReason !== undefined;
  }

  requestStop(reason: string): void {
    this.stopReason ??= reason;
    this.resolveStopRequest(reason);
  }

  /** A checkpoint between start steps: Ctrl-C during start ends it after the current step. */
  throwIfStopRequested(): void {
    if (this.isStopRequested) throw new StopRequested();
  }

  onStop(name: string, stop: Step['stop'], timeoutMs = 5_000): void {
    this.steps.push({ name, stop, timeoutMs });
  }

  /** Runs every stop step once, last started first; failures are logged, not thrown. */
  stopAll(): Promise<void> {
    this.stopping ??= (async () => {
      for (const step of [...this.steps].reverse()) {
        let timer: NodeJS.Timeout | undefined;
        try {
          await Promise.race([
            Promise.resolve().then(step.stop),
            new Promise((_, reject) => {
              timer = setTimeout(
                () => reject(new Error(`did not stop within ${step.timeoutMs / 1000} s`)),
                step.timeoutMs,
              );
            }),
          ]);
        } catch (error) {
          this.log(`Stopping ${step.name}: ${(error as Error).message}`);
        } finally {
          clearTimeout(timer);
        }
      }
    })();
    return this.stopping;
  }
}
