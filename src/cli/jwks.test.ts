/** `run --jwks FILE`: the key set the user trusts verifies the card's signatures; a bad file is a usage error. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDefectAgent, type RunningDefectAgent } from '../testing/defect-agent';
import { main, type CliIo } from './main';

let agent: RunningDefectAgent;
beforeAll(async () => {
  // The signature's jku answers 404: only the key set given with --jwks can verify it.
  agent = await startDefectAgent({ generation: 'v1.0', features: { signed: true }, permitted: ['card-signature-jku-404'] });
});
afterAll(() => agent?.close());

function io(files: Record<string, string>) {
  const out: string[] = [];
  const err: string[] = [];
  const cli: CliIo = {
    stdout: (s) => void out.push(s),
    stderr: (s) => void err.push(s),
    env: {},
    writeFile: () => undefined,
    readFile: (p) => {
      const f = files[p];
      if (f === undefined) throw new Error('ENOENT');
      return f;
    },
  };
  return { cli, out: () => out.join(''), err: () => err.join('') };
}

const base = () => agent.cardUrl.replace(/\/\.well-known\/.*$/, '');
const verified = (json: string) =>
  (JSON.parse(json) as { categories: { agentCard: { id: string; status: string; message: string }[] } }).categories.agentCard.find(
    (r) => r.id === 'card.signatures.verified',
  );

describe('run --jwks', () => {
  it('verifies the card with the keys of the file (without it the signature is unverifiable)', async () => {
    const jwks = await (await fetch(`${base()}/.well-known/jwks.json`)).text();
    const withKeys = io({ 'keys.json': jwks });
    await main(['run', base(), '--jwks', 'keys.json', '--only', 'card.signatures.verified', '--quiet'], withKeys.cli);
    expect(verified(withKeys.out())).toMatchObject({ status: 'pass' });
    const without = io({});
    await main(['run', base(), '--only', 'card.signatures.verified', '--quiet'], without.cli);
    expect(verified(without.out())).toMatchObject({ status: 'skip', message: expect.stringMatching(/jku answered HTTP 404/) });
  });

  it('refuses a missing file, a file that is not a key set, and a private key (exit 2)', async () => {
    for (const [files, msg] of [
      [{}, /--jwks: cannot read keys\.json/],
      [{ 'keys.json': '{"keys": []}' }, /is not a JWKS/],
      [{ 'keys.json': '{"keys": [{"kty": "EC", "d": "secret"}]}' }, /holds a private key/],
    ] as const) {
      const t = io(files);
      expect(await main(['run', base(), '--jwks', 'keys.json'], t.cli)).toBe(2);
      expect(t.err()).toMatch(msg);
    }
  });
});
