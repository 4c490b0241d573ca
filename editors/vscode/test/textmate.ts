// Loads grammar/dyno.tmLanguage.json the way VS Code does (vscode-textmate
// on the Oniguruma WebAssembly build) and tokenises whole files.

import * as fs from 'node:fs';
import * as path from 'node:path';
import * as oniguruma from 'vscode-oniguruma';
import * as vsctm from 'vscode-textmate';

/** The repository root (this file runs from editors/vscode/out/test/). */
export const ROOT = path.resolve(__dirname, '..', '..', '..', '..');
export const GRAMMAR_PATH = path.join(ROOT, 'grammar', 'dyno.tmLanguage.json');

export interface Token {
  start: number;
  end: number;
  text: string;
  scopes: string[];
}

export interface Line {
  /** 1-based line number. */
  number: number;
  text: string;
  tokens: Token[];
}

let grammar: Promise<vsctm.IGrammar> | undefined;

export function loadGrammar(): Promise<vsctm.IGrammar> {
  grammar ??= (async () => {
    const wasm = fs.readFileSync(require.resolve('vscode-oniguruma/release/onig.wasm'));
    await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) as ArrayBuffer);
    const registry = new vsctm.Registry({
      onigLib: Promise.resolve({
        createOnigScanner: (patterns: string[]) => new oniguruma.OnigScanner(patterns),
        createOnigString: (text: string) => new oniguruma.OnigString(text),
      }),
      loadGrammar: async (scopeName: string) =>
        scopeName === 'source.dyno'
          ? vsctm.parseRawGrammar(fs.readFileSync(GRAMMAR_PATH, 'utf8'), GRAMMAR_PATH)
          : null,
    });
    const loaded = await registry.loadGrammar('source.dyno');
    if (!loaded) {
      throw new Error(`cannot load ${GRAMMAR_PATH}`);
    }
    return loaded;
  })();
  return grammar;
}

/** Tokenises `text` line by line, carrying the rule stack, as VS Code does. */
export async function tokenize(text: string, where = '<text>'): Promise<Line[]> {
  const g = await loadGrammar();
  let stack = vsctm.INITIAL;
  const lines: Line[] = [];
  text.split(/\r\n|\r|\n/).forEach((lineText, i) => {
    const result = g.tokenizeLine(lineText, stack, 2000);
    if (result.stoppedEarly) {
      throw new Error(`${where}:${i + 1}: tokenisation stopped early (the grammar is too slow on this line)`);
    }
    lines.push({
      number: i + 1,
      text: lineText,
      tokens: result.tokens.map((t) => ({
        start: t.startIndex,
        end: Math.min(t.endIndex, lineText.length),
        text: lineText.slice(t.startIndex, t.endIndex),
        scopes: t.scopes,
      })),
    });
    stack = result.ruleStack;
  });
  return lines;
}

/** The scopes of the character at `index` (UTF-16) of a line. */
export function scopesAt(line: Line, index: number): string[] {
  const token = line.tokens.find((t) => t.start <= index && index < t.end);
  if (!token) {
    throw new Error(`line ${line.number}: no token at column ${index}`);
  }
  return token.scopes;
}

/**
 * Where strings and the comment are on one line, found by a tiny scanner
 * that follows the lexer's rules: strings stay on one line, `\` escapes the
 * next character, `//` outside a string starts a comment.
 */
export interface LineShape {
  strings: Array<{ start: number; end: number; closed: boolean }>;
  comment?: number;
  /** The line with strings and the comment blanked out (same length). */
  code: string;
}

export function shape(text: string): LineShape {
  const strings: LineShape['strings'] = [];
  let comment: number | undefined;
  let i = 0;
  while (i < text.length) {
    if (text[i] === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') {
        j += text[j] === '\\' ? 2 : 1;
      }
      const closed = j < text.length;
      const end = Math.min(j + 1, text.length);
      strings.push({ start: i, end, closed });
      i = end;
    } else if (text.startsWith('//', i)) {
      comment = i;
      break;
    } else {
      i += 1;
    }
  }
  let code = text;
  const blank = (s: number, e: number) => {
    code = code.slice(0, s) + ' '.repeat(e - s) + code.slice(e);
  };
  for (const s of strings) {
    blank(s.start, s.end);
  }
  if (comment !== undefined) {
    blank(comment, text.length);
  }
  return { strings, comment, code };
}
