import { describe, expect, it } from 'vitest';
import { createSettingsStore, SETTINGS_KEY } from './settings-store';

function memStorage() {
  const m = new Map<string, string>();
  return {
    m,
    storage: {
      get length() {
        return m.size;
      },
      clear: () => m.clear(),
      getItem: (k: string) => m.get(k) ?? null,
      key: (i: number) => [...m.keys()][i] ?? null,
      removeItem: (k: string) => void m.delete(k),
      setItem: (k: string, v: string) => void m.set(k, v),
    } satisfies Storage,
  };
}

describe('settings store', () => {
  it('never writes credentials unless "Remember credentials" is ticked, and forgets them when unticked', () => {
    const { m, storage } = memStorage();
    const s = createSettingsStore(storage);
    s.getState().update({ mode: 'direct' });
    s.getState().setCredentials({ kind: 'bearer', token: 'secret-bearer-1' });
    expect(m.get(SETTINGS_KEY)).toContain('"mode":"direct"');
    expect(m.get(SETTINGS_KEY)).not.toContain('secret-bearer-1');
    s.getState().update({ rememberCredentials: true });
    s.getState().setCredentials({ kind: 'bearer', token: 'secret-bearer-1' });
    expect(m.get(SETTINGS_KEY)).toContain('secret-bearer-1');
    // A new page load reads them back.
    expect(createSettingsStore(storage).getState().credentials).toEqual({ kind: 'bearer', token: 'secret-bearer-1' });
    s.getState().update({ rememberCredentials: false });
    expect(m.get(SETTINGS_KEY)).not.toContain('secret-bearer-1');
    expect(s.getState().credentials).toBeUndefined();
  });
});
