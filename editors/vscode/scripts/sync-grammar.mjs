// Copies the TextMate grammar, whose source of truth is grammar/ at the root
// of the repository, into the extension (syntaxes/), where package.json and
// `vsce package` expect it. Run by `npm run compile` and before packaging.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const source = path.resolve(here, '../../../grammar/dyno.tmLanguage.json');
const target = path.resolve(here, '../syntaxes/dyno.tmLanguage.json');

const text = fs.readFileSync(source, 'utf8');
const grammar = JSON.parse(text); // fail early on invalid JSON
if (grammar.scopeName !== 'source.dyno') {
  throw new Error(`${source}: scopeName is ${grammar.scopeName}, expected source.dyno`);
}
fs.mkdirSync(path.dirname(target), { recursive: true });
fs.writeFileSync(target, text);
console.log(`synced ${path.relative(process.cwd(), source)} -> ${path.relative(process.cwd(), target)}`);
