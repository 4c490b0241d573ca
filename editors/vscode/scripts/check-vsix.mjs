// Opens a packaged .vsix (a zip file) and checks that it is an installable
// extension: the manifest, the bundled entry point and every file that
// package.json refers to are inside, the grammar is the one in grammar/, and
// no sources, tests or node_modules were packed.
//
//   node scripts/check-vsix.mjs dyno.vsix --universal
//       no target platform in the manifest, no server inside
//   node scripts/check-vsix.mjs dyno-linux-x64.vsix --target linux-x64
//       the manifest's TargetPlatform is linux-x64, and server/dyno is an
//       executable for that platform (ELF, Mach-O or PE, and its CPU)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

const here = path.dirname(fileURLToPath(import.meta.url));
const file = path.resolve(process.argv[2] ?? 'dyno.vsix');
const flag = process.argv[3];
if (flag !== '--universal' && flag !== '--target') {
  console.error('usage: check-vsix.mjs <file.vsix> (--universal | --target <platform>)');
  process.exit(2);
}
const expectedTarget = flag === '--target' ? process.argv[4] : undefined;

/** Unix file modes of the entries, from the zip's external attributes. */
const modes = new Map();

/** Reads every entry of a zip file: name -> contents. */
function unzip(buffer) {
  const eocd = buffer.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0) throw new Error(`${file} is not a zip file`);
  const count = buffer.readUInt16LE(eocd + 10);
  let at = buffer.readUInt32LE(eocd + 16);
  const entries = new Map();
  for (let i = 0; i < count; i++) {
    if (buffer.readUInt32LE(at) !== 0x02014b50) throw new Error('corrupt central directory');
    const method = buffer.readUInt16LE(at + 10);
    const size = buffer.readUInt32LE(at + 20);
    const nameLength = buffer.readUInt16LE(at + 28);
    const extraLength = buffer.readUInt16LE(at + 30);
    const commentLength = buffer.readUInt16LE(at + 32);
    const local = buffer.readUInt32LE(at + 42);
    const name = buffer.toString('utf8', at + 46, at + 46 + nameLength);
    modes.set(name, buffer.readUInt32LE(at + 38) >>> 16);
    const dataStart = local + 30 + buffer.readUInt16LE(local + 26) + buffer.readUInt16LE(local + 28);
    const data = buffer.subarray(dataStart, dataStart + size);
    entries.set(name, method === 0 ? data : zlib.inflateRawSync(data));
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

const problems = [];
const entries = unzip(fs.readFileSync(file));
const names = [...entries.keys()].sort();
const need = (name) => entries.has(name) || problems.push(`missing ${name}`);

need('extension.vsixmanifest');
need('[Content_Types].xml');
need('extension/package.json');
const pkg = JSON.parse(entries.get('extension/package.json') ?? '{}');
const inExtension = (p) => `extension/${path.posix.normalize(p).replace(/^\.\//, '')}`;

need(inExtension(pkg.main ?? 'missing-main'));
for (const language of pkg.contributes?.languages ?? []) need(inExtension(language.configuration));
for (const grammar of pkg.contributes?.grammars ?? []) need(inExtension(grammar.path));
for (const snippet of pkg.contributes?.snippets ?? []) need(inExtension(snippet.path));
need('extension/readme.md');

const grammarEntry = entries.get(inExtension(pkg.contributes?.grammars?.[0]?.path ?? ''));
const grammarSource = fs.readFileSync(path.resolve(here, '../../../grammar/dyno.tmLanguage.json'));
if (grammarEntry && !grammarEntry.equals(grammarSource)) {
  problems.push('the packaged grammar differs from grammar/dyno.tmLanguage.json');
}

const main = entries.get(inExtension(pkg.main ?? ''))?.toString('utf8') ?? '';
if (/require\(["']vscode-languageclient/.test(main)) {
  problems.push(`${pkg.main} requires vscode-languageclient at run time: it must be bundled`);
}
if (!main.includes('LanguageClient')) {
  problems.push(`${pkg.main} does not contain the language client`);
}

for (const name of names) {
  if (/^extension\/(node_modules|src|test|out|scripts)\//.test(name) || /\.(ts|map)$/.test(name)) {
    problems.push(`should not be packaged: ${name}`);
  }
}

const bundled = names.filter((n) => /^extension\/server\//.test(n));
console.log(`${path.basename(file)}: ${names.length} entries, ${fs.statSync(file).size} bytes`);
for (const name of names) console.log(`  ${name}`);

const manifest = entries.get('extension.vsixmanifest')?.toString('utf8') ?? '';
const target = /<Identity\b[^>]*\bTargetPlatform="([^"]*)"/.exec(manifest)?.[1];
if (expectedTarget === undefined) {
  if (target) problems.push(`a universal package has TargetPlatform="${target}" in its manifest`);
  if (bundled.length > 0) problems.push(`a universal package carries a server: ${bundled.join(', ')}`);
  if (problems.length === 0) console.log('universal: no server bundled; the extension uses dyno.server.path or dyno on PATH');
} else {
  if (target !== expectedTarget) {
    problems.push(`the manifest's TargetPlatform is ${target ?? 'missing'}, not ${expectedTarget}`);
  }
  const exe = expectedTarget.startsWith('win32-') ? 'extension/server/dyno.exe' : 'extension/server/dyno';
  const binary = entries.get(exe);
  if (!binary) {
    problems.push(`missing ${exe}`);
  } else {
    if (!exe.endsWith('.exe') && (modes.get(exe) & 0o111) === 0) problems.push(`${exe} is not executable in the package`);
    const kind = executableKind(binary);
    if (kind !== expectedTarget.replace(/^alpine-/, 'linux-')) {
      problems.push(`${exe} is a ${kind} executable, not one for ${expectedTarget}`);
    }
    if (problems.length === 0) console.log(`${expectedTarget}: ${exe} (${binary.length} bytes, ${kind}), TargetPlatform="${target}"`);
  }
  for (const name of bundled) {
    if (name !== exe) problems.push(`unexpected file in server/: ${name}`);
  }
}
if (problems.length > 0) {
  console.error(`${file}:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log('vsix ok');

/** The OS-CPU a binary runs on, in vsce's words ('linux-x64', 'win32-arm64', ...), from its header. */
function executableKind(b) {
  if (b.length >= 20 && b.readUInt32BE(0) === 0x7f454c46) {
    const machine = b[5] === 2 ? b.readUInt16BE(18) : b.readUInt16LE(18);
    return `linux-${{ 62: 'x64', 183: 'arm64', 40: 'armhf' }[machine] ?? `elf-machine-${machine}`}`;
  }
  if (b.length >= 8 && b.readUInt32LE(0) === 0xfeedfacf) {
    const cpu = b.readUInt32LE(4);
    return `darwin-${{ 0x01000007: 'x64', 0x0100000c: 'arm64' }[cpu] ?? `cpu-${cpu}`}`;
  }
  if (b.length >= 64 && b.toString('latin1', 0, 2) === 'MZ') {
    const pe = b.readUInt32LE(60);
    if (b.length >= pe + 6 && b.readUInt32BE(pe) === 0x50450000) {
      const machine = b.readUInt16LE(pe + 4);
      return `win32-${{ 0x8664: 'x64', 0xaa64: 'arm64' }[machine] ?? `machine-${machine}`}`;
    }
  }
  return 'unknown';
}
