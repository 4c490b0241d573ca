// Puts a dyno binary inside the extension (server/dyno, server/dyno.exe on
// Windows) so that the packaged .vsix works without dyno on PATH.
//
//   cargo build --release                      # at the repository root
//   npm run bundle-server                      # copies ../../target/release/dyno
//   npm run bundle-server -- /path/to/dyno     # or any binary
//   npx vsce package --target linux-x64 ...    # a platform-specific .vsix
//
// The binary is for one platform, so a .vsix that carries it should be
// packaged with the matching `--target`.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const exe = process.platform === 'win32' ? 'dyno.exe' : 'dyno';
const source = path.resolve(process.argv[2] ?? path.resolve(here, '../../../target/release', exe));
const target = path.resolve(here, '../server', exe);

if (!fs.existsSync(source)) {
  console.error(`no dyno binary at ${source}; run \`cargo build --release\` first or pass a path`);
  process.exit(1);
}
fs.mkdirSync(path.dirname(target), { recursive: true });
fs.copyFileSync(source, target);
fs.chmodSync(target, 0o755);
console.log(`bundled ${source} -> ${path.relative(process.cwd(), target)}`);
