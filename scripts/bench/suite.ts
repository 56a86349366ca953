import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chatGoals } from './chat/chat-goals';
import { studyExportGoals } from './export/study-export-goals';
import { mailGoals } from './mail-goals';
import { restGoals } from './rest/rest-goals';
import { startGoals } from './start-goals';
import { unmeasured, type GoalGroup, type GoalResult } from './support/goal';
import { videoGoals } from './video/video-goals';
import { webGoals } from './web-goals';

/**
 * `npm run bench`: the performance issue's goals P1..P11, each beside what it is compared with
 * (a bare socket.io server, a plain Express + pg handler, the object store direct), measured on this
 * machine in one run, printed as a table and written to docs/benchmarks.md. BENCH_ONLY=P1,P6 runs
 * the groups holding those goals; `--list` prints the groups it would run and runs none. Every load
 * generator is its own process, bounded in count and time, and talks to 127.0.0.1 only.
 */

const GROUPS: readonly GoalGroup[] = [
  chatGoals,
  restGoals,
  videoGoals,
  mailGoals,
  startGoals,
  webGoals,
  studyExportGoals,
];
const REPO = path.resolve(__dirname, '../../..');
const REPORT = process.env.BENCH_REPORT ?? path.join(REPO, 'docs/benchmarks.md');

function selected(): GoalGroup[] {
  const only = (process.env.BENCH_ONLY ?? '')
    .split(',')
    .map((id) => id.trim().toUpperCase())
    .filter(Boolean);
  return only.length === 0
    ? [...GROUPS]
    : GROUPS.filter((group) => group.ids.some((id) => only.includes(id)));
}

/** 11 for "### P11: ..." or "P11": goals in their order, P2 before P10. */
const idNumber = (text: string) => Number(/P(\d+)/.exec(text)?.[1] ?? 0);

const row = (cells: string[]) => `| ${cells.map((cell) => cell.replace(/\|/g, '\\|')).join(' | ')} |`;

function table(results: GoalResult[]): string {
  return [
    row(['id', 'what', 'goal', 'measured', 'result']),
    row(['---', '---', '---', '---', '---']),
    ...results.map((r) => row([r.id, r.what, r.goal, r.measured, r.pass ? 'pass' : '**miss**'])),
  ].join('\n');
}

function machine(): string {
  const cpus = os.cpus();
  return `${cpus.length} x ${cpus[0]?.model ?? 'CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.type()} ${os.release()}, Node ${process.version}`;
}

function report(results: GoalResult[], seconds: number, previous: string | null): string {
  const ran = new Set(results.map((r) => r.id));
  const kept = previous ? keptSections(previous, ran) : [];
  const stamp = `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, in a run of ${[...ran].join(', ')} (${Math.round(seconds / 60)} min) on ${machine()}`;
  const sections = results
    .filter((r) => r.details)
    .map(
      (r) =>
        `### ${r.id}: ${r.what}\n\nReproduce: \`${r.reproduce}\`\n\nMeasured: ${stamp}.\n\n${r.details!.trim()}\n`,
    );
  return [
    '# Benchmarks',
    '',
    "The performance issue's goals, measured by `npm run bench` (after `npm install`, with the",
    'local Postgres and Redis): each beside its baseline in the same run, medians of interleaved',
    'rounds, load generators in their own processes. `BENCH_ONLY=P1,P6 npm run bench` runs only the',
    'groups holding those goals (and keeps the other rows of this file). What limits a missed goal is in',
    'its details below (the chat goals with CPU profiles of our services); docs/bench/ holds focused',
    'benchmarks and the before and after rows of the work on them.',
    '',
    `Last run: ${stamp}.`,
    ...(kept.length > 0
      ? [
          'The rows it did not measure are kept from earlier runs; the details of each goal say when it was measured.',
        ]
      : []),
    '',
    table([...results, ...kept.map((k) => k.result)].sort((a, b) => idNumber(a.id) - idNumber(b.id))),
    '',
    '## Details',
    '',
    ...[...sections, ...kept.map((k) => k.section)].sort((a, b) => idNumber(a) - idNumber(b)),
  ].join('\n');
}

/** Rows and sections of goals this run did not measure, from the previous report. */
function keptSections(previous: string, ran: Set<string>): { result: GoalResult; section: string }[] {
  const kept: { result: GoalResult; section: string }[] = [];
  for (const line of previous.split('\n')) {
    const cells = /^\| (P\d+) \| (.*) \| (.*) \| (.*) \| (pass|\*\*miss\*\*) \|$/.exec(line);
    if (!cells || ran.has(cells[1]!)) continue;
    const id = cells[1]!;
    const section = new RegExp(`^### ${id}:[\\s\\S]*?(?=^### |(?![\\s\\S]))`, 'm').exec(previous)?.[0] ?? '';
    kept.push({
      result: {
        id,
        what: cells[2]!,
        goal: cells[3]!,
        measured: cells[4]!,
        pass: cells[5] === 'pass',
        reproduce: '',
      },
      section: section.trimEnd() + '\n',
    });
  }
  return kept;
}

async function main(): Promise<void> {
  const began = Date.now();
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'uis-bench-'));
  const results: GoalResult[] = [];
  try {
    for (const group of selected()) {
      const started = Date.now();
      console.log(`== ${group.ids.join(', ')}`);
      let measured: GoalResult[];
      try {
        measured = await group.run({ repo: REPO, scratch, log: (message) => console.log(`   ${message}`) });
      } catch (error) {
        console.error(error);
        measured = unmeasured(group, error);
      }
      for (const result of measured) {
        console.log(
          `   ${result.id} ${result.pass ? 'pass' : 'MISS'}: ${result.measured} (goal: ${result.goal})`,
        );
      }
      console.log(`   (${Math.round((Date.now() - started) / 1000)} s)`);
      results.push(...measured);
    }
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  const previous = fs.existsSync(REPORT) ? fs.readFileSync(REPORT, 'utf8') : null;
  fs.writeFileSync(REPORT, report(results, (Date.now() - began) / 1000, previous));
  console.log(`\n${table(results)}\n\nWritten to ${path.relative(REPO, REPORT)}.`);
}

if (process.argv.includes('--list')) {
  for (const group of selected()) console.log(group.ids.join(', '));
  process.exit(0);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
