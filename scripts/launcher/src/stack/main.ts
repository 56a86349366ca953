import { runCommand } from '../run-command';
import { defaultStackOptions, startStack } from './stack';

/** `npm run stack`: starts the distributed stack, prints where it answers, stops it all on Ctrl-C. */

const FORCE_EXIT_AFTER_MS = 30_000;
const log = (message: string) => console.log(`[stack] ${message}`);
const width = 'realtime-2'.length;
const sink = (label: string, line: string) => console.log(`${label.padEnd(width)} | ${line}`);

void runCommand({
  tag: 'stack',
  command: 'npm run stack',
  forceExitAfterMs: FORCE_EXIT_AFTER_MS,
  run: async (lifecycle) => {
    const options = defaultStackOptions(process.env, sink, log);
    const stack = await startStack(options, lifecycle);
    log(`ready: ${stack.url} (self-signed certificate: ${options.dataDir}/tls/tls.crt)`);
    if (stack.mail) log('magic-link mails are caught here and printed below; no mail leaves this machine.');
    log('Ctrl-C stops everything.');
    return Promise.race([lifecycle.stopRequested.then(() => undefined), stack.failed]);
  },
});
