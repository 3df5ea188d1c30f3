import { createContext, useContext, type ReactNode } from 'react';
import type { RunArchive } from './db';

const ArchiveContext = createContext<RunArchive | null>(null);

export function ArchiveProvider({ value, children }: { value: RunArchive; children: ReactNode }) {
  return <ArchiveContext.Provider value={value}>{children}</ArchiveContext.Provider>;
}

export function useArchive(): RunArchive {
  const a = useContext(ArchiveContext);
  if (!a) throw new Error('useArchive outside ArchiveProvider');
  return a;
}

export const runsQueryKey = ['runs'] as const;
