/** `a2a-interop checks | head -1`: the reader goes away early; the command ends quietly (no EPIPE stack trace). */
import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(__dirname, '../..');

describe('a closed stdout', () => {
  it.each([['checks'], ['checks --format json'], ['explain errors.task-not-found']])(
    'a2a-interop %s | head -c 10: exit 0, nothing on stderr',
    async (args) => {
      const errFile = join(tmpdir(), `a2a-epipe-${process.pid}-${args.length}`);
      const script = `node ${JSON.stringify(join(root, 'src/cli/bin.mjs'))} ${args} 2>"$ERR" | head -c 10 >/dev/null; echo "\${PIPESTATUS[0]}"; cat "$ERR"`;
      const out = await new Promise<string>((done, fail) =>
        execFile('bash', ['-c', script], { env: { ...process.env, ERR: errFile }, timeout: 30_000 }, (err, stdout) => {
          rmSync(errFile, { force: true });
          return err ? fail(err) : done(stdout);
        }),
      );
      expect(out).toBe('0\n');
    },
    30_000,
  );
});
