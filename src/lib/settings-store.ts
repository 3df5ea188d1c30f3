import { useStore } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import { createStore } from 'zustand/vanilla';
import type { Credentials } from './engine';
import type { TransportMode } from './engine-adapter';

export type ThemeChoice = 'system' | 'light' | 'dark';

export interface Settings {
  mode: TransportMode;
  /** Empty: the same-origin proxy at /proxy. */
  proxyUrl: string;
  /** `hosted` proxies cannot reach private addresses; the form warns about those. */
  proxyKind: 'local' | 'hosted';
  theme: ThemeChoice;
  /** Off by default: credentials live only in memory for the tab's lifetime. */
  rememberCredentials: boolean;
  /** Only set while rememberCredentials is on; kept in this browser's localStorage. */
  credentials?: Credentials;
  /** Off by default: credentials go only over https or to this machine; on for local testing on a private network. */
  allowInsecureCredentials: boolean;
}

export const SETTINGS_KEY = 'a2a-interop.settings';
/** Where remembered credentials are kept, shown to the user next to the checkbox. */
export const CREDENTIALS_WHERE = `this browser's localStorage (key "${SETTINGS_KEY}"), unencrypted, on this device only`;

export interface SettingsState extends Settings {
  update(patch: Partial<Settings>): void;
  setCredentials(c: Credentials | undefined): void;
}

const memoryStorage = (): Storage => {
  const m = new Map<string, string>();
  return {
    get length() {
      return m.size;
    },
    clear: () => m.clear(),
    getItem: (k) => m.get(k) ?? null,
    key: (i) => [...m.keys()][i] ?? null,
    removeItem: (k) => void m.delete(k),
    setItem: (k, v) => void m.set(k, v),
  };
};

export function createSettingsStore(storage: Storage = typeof localStorage !== 'undefined' ? localStorage : memoryStorage()) {
  return createStore<SettingsState>()(
    persist(
      (set, get) => ({
        mode: 'proxy',
        proxyUrl: '',
        proxyKind: 'local',
        theme: 'system',
        rememberCredentials: false,
        credentials: undefined,
        allowInsecureCredentials: false,
        update: (patch) => {
          const next = { ...patch };
          // Unticking "Remember credentials" forgets them at once.
          if (patch.rememberCredentials === false) next.credentials = undefined;
          set(next);
        },
        setCredentials: (c) => set({ credentials: get().rememberCredentials && c && c.kind !== 'none' ? c : undefined }),
      }),
      {
        name: SETTINGS_KEY,
        storage: createJSONStorage(() => storage),
        // Credentials are written only when the user asked for it.
        partialize: (s) => ({
          mode: s.mode,
          proxyUrl: s.proxyUrl,
          proxyKind: s.proxyKind,
          theme: s.theme,
          rememberCredentials: s.rememberCredentials,
          allowInsecureCredentials: s.allowInsecureCredentials,
          ...(s.rememberCredentials && s.credentials ? { credentials: s.credentials } : {}),
        }),
      },
    ),
  );
}

export type SettingsStore = ReturnType<typeof createSettingsStore>;

export const settingsStore: SettingsStore = createSettingsStore();

export function useSettings<T>(selector: (s: SettingsState) => T): T {
  return useStore(settingsStore, selector);
}
