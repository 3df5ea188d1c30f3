import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_REASON, JSONRPC_CODE } from './errors';

/**
 * One table of errors (errors.ts): the engine (checks, judges, targets, the console session, the tap…) names errors through
 * it (`isA2AError`, `a2aErrorName`, `JSONRPC_CODE`, `ERROR_REASON`), never by a JSON-RPC code literal of their own.
 * This scan fails on any -32xxx number in their code or in their strings (a title, a message, a recommendation quote
 * the code as `${JSONRPC_CODE.TaskNotFound}`, so the text says what the table says), and on a string that is an
 * ErrorInfo reason (`'TASK_NOT_FOUND'`: `ERROR_REASON.TaskNotFound`); comments are prose and are not scanned.
 */
const ENGINE = resolve(__dirname, '..');
/**
 * All of src/engine but the table itself and the specification's own sentences (spec/data quotes them verbatim, codes
 * included: src/engine/spec/quotes.test.ts holds them to the vendored texts).
 */
const EXEMPT = new Set(['protocol/errors.ts']);
const EXEMPT_DIRS = ['spec/data/'];

interface Literal {
  line: number;
  /** In code (a number the program compares or sends), inside a string or template text, or a string that is an ErrorInfo reason. */
  in: 'code' | 'text' | 'reason';
  text: string;
}

const CODE_AT = /^-32\d{3}(?!\d)/;
const REASONS = new Set<string>(Object.values(ERROR_REASON));

/** The JSON-RPC error code literals (-32000 to -32999) of a TypeScript source, comments left out. */
function errorCodeLiterals(src: string): Literal[] {
  const out: Literal[] = [];
  const lines = src.split('\n');
  const add = (line: number, where: Literal['in']) => out.push({ line, in: where, text: lines[line - 1]!.trim() });
  /** Open `${` interpolations of template literals: the brace depth inside each. */
  const templates: number[] = [];
  let line = 1;
  let i = 0;
  let inTemplate = false;
  while (i < src.length) {
    const c = src[i]!;
    if (inTemplate) {
      if (c === '\\') i += 2;
      else if (c === '`') {
        inTemplate = false;
        i++;
      } else if (c === '$' && src[i + 1] === '{') {
        templates.push(0);
        inTemplate = false;
        i += 2;
      } else {
        if (c === '\n') line++;
        if (c === '-' && CODE_AT.test(src.slice(i, i + 8))) add(line, 'text');
        i++;
      }
      continue;
    }
    if (c === '\n') line++;
    if (c === '/' && src[i + 1] === '/') {
      while (i < src.length && src[i] !== '\n') i++;
      continue;
    }
    if (c === '/' && src[i + 1] === '*') {
      const end = src.indexOf('*/', i + 2);
      const stop = end < 0 ? src.length : end + 2;
      line += (src.slice(i, stop).match(/\n/g) ?? []).length;
      i = stop;
      continue;
    }
    if (c === "'" || c === '"') {
      let j = i + 1;
      while (j < src.length && src[j] !== c && src[j] !== '\n') j += src[j] === '\\' ? 2 : 1;
      if (/-32\d{3}(?!\d)/.test(src.slice(i + 1, j))) add(line, 'text');
      else if (REASONS.has(src.slice(i + 1, j))) add(line, 'reason');
      i = j + 1;
      continue;
    }
    if (c === '`') {
      inTemplate = true;
      i++;
      continue;
    }
    if (templates.length && c === '{') templates[templates.length - 1]!++;
    if (templates.length && c === '}') {
      if (templates[templates.length - 1] === 0) {
        templates.pop();
        inTemplate = true;
        i++;
        continue;
      }
      templates[templates.length - 1]!--;
    }
    if (c === '-' && CODE_AT.test(src.slice(i, i + 8)) && !/[\w.$)\]]/.test(src[i - 1] ?? '')) add(line, 'code');
    i++;
  }
  return out;
}

function walk(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? walk(p) : /\.tsx?$/.test(n) && !/\.test\.tsx?$/.test(n) ? [p] : [];
  });
}

const files = walk(ENGINE).filter((f) => {
  const rel = relative(ENGINE, f).split('\\').join('/');
  return !EXEMPT.has(rel) && !EXEMPT_DIRS.some((d) => rel.startsWith(d));
});
const literals = files.flatMap((f) => errorCodeLiterals(readFileSync(f, 'utf8')).map((l) => ({ ...l, at: `${relative(ENGINE, f)}:${l.line}` })));

describe('JSON-RPC error codes come from the error table', () => {
  it('the scan finds code literals, text and nothing in comments (synthetic input)', () => {
    const src = [
      "if (e.code === -32001) return 'x';",
      '// -32602 in a comment',
      '/* -32700 in a block',
      '   comment */ const ok = true;',
      "const title = 'TaskNotFound (-32001)';",
      'const m = `got ${-32603} and -32600 ${JSONRPC_CODE.TaskNotFound}`;',
      'const n = 1 - 32001;',
      'const codes = [-32004, JSONRPC_CODE.MethodNotFound];',
      'const a = x-32001;',
      "expectRest(ctx, p, what, { expected: 'HTTP 404 TASK_NOT_FOUND', reason: 'TASK_NOT_FOUND' });",
    ].join('\n');
    expect(errorCodeLiterals(src).map((l) => `${l.line}:${l.in}`)).toEqual(['1:code', '5:text', '6:code', '6:text', '8:code', '10:reason']);
    expect(errorCodeLiterals(`const c = JSONRPC_CODE.TaskNotFound; // ${JSONRPC_CODE.TaskNotFound}`)).toEqual([]);
  });

  it('no -32xxx number in the code or the text of src/engine (the table and the quoted specification aside), and no ErrorInfo reason spelled out', () => {
    expect(files.map((f) => relative(ENGINE, f).split('\\').join('/'))).toEqual(expect.arrayContaining(['checks/errors/tasks.ts', 'session/session.ts']));
    expect(literals.map((l) => `${l.at} (${l.in}): ${l.text}`)).toEqual([]);
  });
});
