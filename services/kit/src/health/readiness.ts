import { Injectable } from '@nestjs/common';

export type ReadinessProbe = () => Promise<unknown>;

/** What /ready checks: each dependency a service cannot serve without registers a probe here. */
@Injectable()
export class Readiness {
  private readonly probes = new Map<string, ReadinessProbe>();

  add(name: string, probe: ReadinessProbe): void {
    this.probes.set(name, probe);
  }

  /** Names of the failed probes with their reasons; empty when ready. */
  async failures(timeoutMs = 2_000): Promise<string[]> {
    const results = await Promise.all(
      [...this.probes].map(async ([name, probe]) => {
        let timer: NodeJS.Timeout | undefined;
        try {
          await Promise.race([
            probe(),
            new Promise((_, reject) => {
              timer = setTimeout(() => reject(new Error('timed out')), timeoutMs);
            }),
          ]);
          return null;
        } catch (error) {
          return `${name}: ${(error as Error).message}`;
        } finally {
          clearTimeout(timer);
        }
      }),
    );
    return results.filter((failure): failure is string => failure !== null);
  }
}
