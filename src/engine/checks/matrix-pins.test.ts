import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLEAN_CASES, pinnedMatrixFile } from '../../testing/defect-agent/matrix';

/**
 * The clean agent's pinned results (matrix.test.ts) are one file per target and setup. Checked here without running
 * the matrix (seconds, not minutes), so that a missing pin fails on every machine: outside CI vitest would write it
 * and pass. Only `npx vitest run src/engine/checks/matrix.test.ts --update` creates or rewrites them (vitest 4 reads `-u <path>`
 * as an update mode and then runs every test file).
 */
describe('__matrix__ pins', () => {
  const dir = resolve(__dirname, '__matrix__');
  it('hold exactly one file per clean case: none missing, none stale', () => {
    const expected = CLEAN_CASES.map(pinnedMatrixFile).sort();
    expect(expected.length).toBeGreaterThan(40);
    expect(readdirSync(dir).sort()).toEqual(expected);
  });
});
