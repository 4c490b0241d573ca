// Finding the dyno language server. Kept free of the `vscode` module so that
// it can be tested with plain Node.
//
// Lookup order:
//   1. the `dyno.server.path` setting,
//   2. a binary bundled inside the extension (server/dyno, server/dyno.exe),
//   3. `dyno` on PATH.
// The server is started as `<binary> lsp` and speaks LSP over stdio.

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export type ServerSource = 'setting' | 'bundled' | 'path';

export interface LookupOptions {
  /** The value of `dyno.server.path` (empty or undefined when not set). */
  configured?: string;
  /** The extension's install directory (`context.extensionPath`). */
  extensionPath: string;
  /** Relative `dyno.server.path` values are resolved against this folder. */
  workspaceFolder?: string;
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
}

/** One place that was searched, and why it did not do (when it did not). */
export interface Candidate {
  source: ServerSource;
  /** A path, or a description for PATH. */
  location: string;
  problem?: string;
}

export interface Lookup {
  /** The executable to start, as an absolute path. */
  command?: string;
  source?: ServerSource;
  /** Every place looked at, in order, up to and including the one found. */
  candidates: Candidate[];
}

/** The arguments that turn the dyno CLI into a language server. */
export const SERVER_ARGS: readonly string[] = ['lsp'];

export function executableName(platform: NodeJS.Platform = process.platform): string {
  return platform === 'win32' ? 'dyno.exe' : 'dyno';
}

export function bundledServerPath(extensionPath: string, platform: NodeJS.Platform = process.platform): string {
  return path.join(extensionPath, 'server', executableName(platform));
}

/** Expands `~` and `${workspaceFolder}`, and resolves relative paths. */
export function expandConfiguredPath(value: string, workspaceFolder?: string): string {
  let p = value.trim();
  if (p === '~' || p.startsWith('~/') || p.startsWith('~\\')) {
    p = path.join(os.homedir(), p.slice(1));
  }
  if (workspaceFolder) {
    p = p.split('${workspaceFolder}').join(workspaceFolder);
  }
  if (!path.isAbsolute(p) && workspaceFolder) {
    p = path.resolve(workspaceFolder, p);
  }
  return p;
}

function executableProblem(file: string, platform: NodeJS.Platform): string | undefined {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    return 'does not exist';
  }
  if (!stat.isFile()) {
    return 'is not a file';
  }
  if (platform !== 'win32') {
    try {
      fs.accessSync(file, fs.constants.X_OK);
    } catch {
      return 'is not executable';
    }
  }
  return undefined;
}

function pathValue(env: NodeJS.ProcessEnv): string {
  const key = Object.keys(env).find((k) => k.toUpperCase() === 'PATH');
  return (key && env[key]) || '';
}

/** Finds `dyno` on PATH (with PATHEXT on Windows); an absolute path or undefined. */
export function findOnPath(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): string | undefined {
  const dirs = pathValue(env)
    .split(platform === 'win32' ? ';' : ':')
    .filter((d) => d.length > 0);
  const names =
    platform === 'win32'
      ? (env.PATHEXT || '.EXE;.CMD;.BAT;.COM')
          .split(';')
          .filter((e) => e.length > 0)
          .map((e) => `dyno${e.toLowerCase()}`)
      : ['dyno'];
  for (const dir of dirs) {
    for (const name of names) {
      const candidate = path.resolve(dir, name);
      if (executableProblem(candidate, platform) === undefined) {
        return candidate;
      }
    }
  }
  return undefined;
}

export function findServer(options: LookupOptions): Lookup {
  const platform = options.platform ?? process.platform;
  const env = options.env ?? process.env;
  const candidates: Candidate[] = [];

  const configured = options.configured?.trim();
  if (configured) {
    const file = expandConfiguredPath(configured, options.workspaceFolder);
    const problem = executableProblem(file, platform);
    candidates.push({ source: 'setting', location: file, problem });
    if (!problem) {
      return { command: file, source: 'setting', candidates };
    }
  } else {
    candidates.push({ source: 'setting', location: 'dyno.server.path', problem: 'is not set' });
  }

  const bundled = bundledServerPath(options.extensionPath, platform);
  let bundledProblem = executableProblem(bundled, platform);
  if (bundledProblem === 'is not executable') {
    // An unpacker that dropped the file mode: the binary is ours, so fix it.
    try {
      fs.chmodSync(bundled, 0o755);
      bundledProblem = executableProblem(bundled, platform);
    } catch {
      // Read-only install: report it as not executable.
    }
  }
  candidates.push({ source: 'bundled', location: bundled, problem: bundledProblem });
  if (!bundledProblem) {
    return { command: bundled, source: 'bundled', candidates };
  }

  const onPath = findOnPath(env, platform);
  candidates.push({
    source: 'path',
    location: onPath ?? `${executableName(platform)} on PATH`,
    problem: onPath ? undefined : 'was not found',
  });
  if (onPath) {
    return { command: onPath, source: 'path', candidates };
  }
  return { candidates };
}

function describe(candidate: Candidate): string {
  switch (candidate.source) {
    case 'setting':
      return candidate.problem === 'is not set'
        ? 'the setting `dyno.server.path` is not set'
        : `the setting \`dyno.server.path\` points to ${candidate.location}, which ${candidate.problem}`;
    case 'bundled':
      return `no server is bundled with the extension (looked for ${candidate.location})`;
    case 'path':
      return '`dyno` is not on PATH';
  }
}

/** The error shown when no server was found: names all three places. */
export function notFoundMessage(lookup: Lookup): string {
  const places = lookup.candidates.map((c, i) => `(${i + 1}) ${describe(c)}`).join('; ');
  return (
    `Dyno: cannot start the language server \`dyno lsp\`: ${places}. ` +
    'Install dyno (`cargo install --path .` in the dyno repository) so that `dyno` is on PATH, ' +
    'or set `dyno.server.path` to the dyno binary.'
  );
}

/** A warning when `dyno.server.path` is set but unusable and another server was found instead. */
export function fallbackWarning(lookup: Lookup): string | undefined {
  const setting = lookup.candidates.find((c) => c.source === 'setting');
  if (!lookup.command || lookup.source === 'setting' || !setting || setting.problem === 'is not set') {
    return undefined;
  }
  return (
    `Dyno: the setting \`dyno.server.path\` points to ${setting.location}, which ${setting.problem}; ` +
    `using ${lookup.command} instead.`
  );
}
