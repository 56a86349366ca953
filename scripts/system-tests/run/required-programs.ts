import fs from 'node:fs';
import path from 'node:path';

/** A program the tests run besides Node, and how to get it. */
export interface RequiredProgram {
  /** Where it may be: absolute paths, or names looked up on the PATH; the first found counts. */
  candidates: string[];
  /** Debian's package of it, for the one `apt-get install` line. */
  debianPackage?: string;
  /** What to do when Debian's package is no use (kubectl: too old for k8s/). */
  otherwise?: string;
}

/**
 * What `npm test` needs besides Node, where the tests look for it (the browsers at the paths of
 * web/e2e's config, nginx where `npm run stack` looks). .ci/run installs the Debian ones (its
 * DEBIAN_PACKAGES).
 */
export const requiredPrograms = (env: NodeJS.ProcessEnv): RequiredProgram[] => [
  // The tests' Redis when none answers, and realtime's outage tests, which run one of their own.
  { candidates: ['redis-server'], debianPackage: 'redis-server' },
  { candidates: ['/usr/bin/chromium'], debianPackage: 'chromium' },
  { candidates: [env.FIREFOX_PATH || '/usr/bin/firefox-esr'], debianPackage: 'firefox-esr' },
  // The videos the upload and stream tests make.
  { candidates: ['ffmpeg'], debianPackage: 'ffmpeg' },
  // The gateway of `npm run stack` and of the image tests, with its certificate.
  { candidates: env.NGINX_BIN ? [env.NGINX_BIN] : ['/usr/sbin/nginx', 'nginx'], debianPackage: 'nginx' },
  { candidates: ['openssl'], debianPackage: 'openssl' },
  // Calls through a TURN relay (signal's tests, the browser tests), where signal's coturn.ts looks.
  {
    candidates: env.TURNSERVER_BIN
      ? [env.TURNSERVER_BIN]
      : ['turnserver', '/usr/bin/turnserver', '/usr/sbin/turnserver'],
    debianPackage: 'coturn',
  },
  // k8s/ rendered offline; Debian's kubernetes-client (1.20) has a kustomize too old for it.
  { candidates: ['kubectl'], otherwise: 'kubectl 1.27 or newer (kustomize v5) on the PATH' },
];

const isExecutable = (file: string): boolean => {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
};

/** The file a candidate names: itself when absolute, else the first match on `searchPath`. */
export function findProgram(candidate: string, searchPath: string): string | undefined {
  if (path.isAbsolute(candidate)) return isExecutable(candidate) ? candidate : undefined;
  return searchPath
    .split(path.delimiter)
    .filter(Boolean)
    .map((dir) => path.join(dir, candidate))
    .find(isExecutable);
}

export function missingPrograms(programs: RequiredProgram[], env: NodeJS.ProcessEnv): RequiredProgram[] {
  const searchPath = env.PATH ?? '';
  return programs.filter(
    (program) => !program.candidates.some((candidate) => findProgram(candidate, searchPath)),
  );
}

/** One line that says what to install, or undefined when nothing is missing. */
export function installLine(missing: RequiredProgram[]): string | undefined {
  if (missing.length === 0) return undefined;
  const packages = missing.flatMap((program) => program.debianPackage ?? []);
  const others = missing.flatMap((program) => program.otherwise ?? []);
  const steps = [...(packages.length > 0 ? [`apt-get install -y ${packages.join(' ')}`] : []), ...others];
  return `The tests need programs this machine lacks: ${steps.join('; and ')}.`;
}
