// Builds the .vsix.
//
//   npm run package                     # dyno-<host>.vsix: the server bundled, for this machine
//   npm run package -- --target linux-arm64 --binary ../../target/aarch64-unknown-linux-gnu/release/dyno
//   npm run package:universal           # dyno.vsix: no server, uses dyno.server.path or dyno on PATH
//
// A platform-specific package carries one dyno binary in server/ (dyno.exe
// for win32 targets) and says so in its manifest (`vsce package --target`),
// so VS Code and Open VSX offer it only to that platform. The binary is
// ../../target/release/dyno unless --binary names another one (a
// cross-built one for another target, or a debug build for a test). server/
// is filled for packaging only and emptied again afterwards, so it cannot
// leak into a later universal package.
//
// Each package is then opened and checked by scripts/check-vsix.mjs.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const ext = path.resolve(here, '..');

/** vsce's target names for the platforms dyno is built for. */
export const TARGETS = ['linux-x64', 'linux-arm64', 'linux-armhf', 'alpine-x64', 'alpine-arm64',
  'darwin-x64', 'darwin-arm64', 'win32-x64', 'win32-arm64'];

export function hostTarget(platform = process.platform, arch = process.arch) {
  const os = { linux: 'linux', darwin: 'darwin', win32: 'win32' }[platform];
  const cpu = { x64: 'x64', arm64: 'arm64', arm: 'armhf' }[arch];
  const target = os && cpu ? `${os}-${cpu}` : undefined;
  if (!target || !TARGETS.includes(target)) {
    throw new Error(`no vsce target for ${platform}-${arch}: pass --target (one of ${TARGETS.join(', ')})`);
  }
  return target;
}

function parse(argv) {
  const options = { universal: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) throw new Error(`${arg} needs a value`);
      return argv[++i];
    };
    if (arg === '--universal') options.universal = true;
    else if (arg === '--target') options.target = value();
    else if (arg === '--binary') options.binary = value();
    else if (arg === '--out') options.out = value();
    else throw new Error(`unknown argument ${arg}`);
  }
  return options;
}

function run(command, args) {
  // vsce is a local dev dependency; npm puts node_modules/.bin on PATH for
  // `npm run`, and this also works when the script is run with plain node.
  const bin = path.join(ext, 'node_modules', '.bin', process.platform === 'win32' ? `${command}.cmd` : command);
  const result = spawnSync(fs.existsSync(bin) ? bin : command, args, {
    cwd: ext,
    stdio: 'inherit',
    shell: process.platform === 'win32',
  });
  if (result.error) throw result.error;
  if (result.status !== 0) process.exit(result.status ?? 1);
}

// --no-dependencies: dist/extension.js bundles the client library.
// The manifest has no license or repository yet (docs/editors.md, Open VSX).
const VSCE = ['package', '--no-dependencies', '--allow-missing-repository', '--skip-license'];
const serverDir = path.join(ext, 'server');

function main() {
  const options = parse(process.argv.slice(2));
  fs.rmSync(serverDir, { recursive: true, force: true });
  if (options.universal) {
    if (options.target || options.binary) throw new Error('--universal takes no --target or --binary');
    const out = path.resolve(options.out ?? path.join(ext, 'dyno.vsix'));
    run('vsce', [...VSCE, '--out', out]);
    run(process.execPath, [path.join(here, 'check-vsix.mjs'), out, '--universal']);
    return;
  }

  const target = options.target ?? hostTarget();
  if (!TARGETS.includes(target)) throw new Error(`unknown target ${target}: one of ${TARGETS.join(', ')}`);
  const exe = target.startsWith('win32-') ? 'dyno.exe' : 'dyno';
  const binary = path.resolve(options.binary ?? path.join(ext, '..', '..', 'target', 'release', exe));
  if (!fs.existsSync(binary)) {
    throw new Error(
      `no dyno binary at ${binary}: run \`cargo build --release\` at the repository root, pass ` +
        '--binary /path/to/dyno, or build the universal package with `npm run package:universal`',
    );
  }
  const out = path.resolve(options.out ?? path.join(ext, `dyno-${target}.vsix`));
  fs.mkdirSync(serverDir, { recursive: true });
  try {
    fs.copyFileSync(binary, path.join(serverDir, exe));
    fs.chmodSync(path.join(serverDir, exe), 0o755);
    console.log(`bundled ${binary} as server/${exe}`);
    run('vsce', [...VSCE, '--target', target, '--out', out]);
  } finally {
    fs.rmSync(serverDir, { recursive: true, force: true });
  }
  run(process.execPath, [path.join(here, 'check-vsix.mjs'), out, '--target', target]);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    main();
  } catch (error) {
    console.error(`package: ${error.message}`);
    process.exit(1);
  }
}
