#!/usr/bin/env node
/**
 * `npm run test:quick`: the inner loop. The engine's and the exporters' unit tests (the judges, the protocol readers,
 * the spec quotes, the level rules, the checks against the in-memory fake host) and the house rules (boundaries,
 * file size), without any test that starts an agent, a server, a browser or a child process. Those are found by what
 * a test file imports (QUICK_EXCLUDES), so a new test that starts a server leaves the quick loop by itself.
 *
 *   npm run test:quick              every quick test
 *   npm run test:quick -- --list    the files it would run, and the ones it leaves out with the reason
 *   npm run test:quick -- <vitest args>   e.g. -t 'cancel'
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
const DIRS = ['src/engine', 'src/exporters'];
const HOUSE_RULES = ['src/boundaries.test.ts', 'src/file-size.test.ts'];

/** What makes a test slow or environment-bound: it starts an agent, a server, a process or a gRPC channel. */
export const QUICK_EXCLUDES = [
  /testing\/defect-agent/,
  /demo-agents/,
  /testing\/fleet/,
  /server\/main/,
  /['"]node:(http|https|net|child_process)['"]/,
  /@a2a-js\/sdk/,
  /oauth2-mock-server/,
  /@grpc\/grpc-js/,
  /\bcreateServer\(/,
];

function walk(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name)) : /\.test\.tsx?$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

const files = [...DIRS.flatMap((d) => walk(join(ROOT, d))), ...HOUSE_RULES.map((f) => join(ROOT, f))].map((f) => relative(ROOT, f)).sort();
const quick = [];
const left = [];
for (const f of files) {
  const text = readFileSync(join(ROOT, f), 'utf8');
  const why = QUICK_EXCLUDES.find((re) => re.test(text));
  if (why) left.push([f, String(why)]);
  else quick.push(f);
}

const args = process.argv.slice(2);
if (args.includes('--list')) {
  for (const f of quick) console.log(`quick  ${f}`);
  for (const [f, why] of left) console.log(`left   ${f}  (${why})`);
  console.log(`${quick.length} quick, ${left.length} left to npm test`);
  process.exit(0);
}
const child = spawn('npx', ['--no-install', 'vitest', 'run', ...args, ...quick], { stdio: 'inherit', cwd: ROOT });
child.on('close', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
