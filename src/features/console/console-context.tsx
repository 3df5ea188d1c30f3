import { createContext, useContext, useMemo, type ReactNode } from 'react';
import { useStore } from 'zustand';
import type { ConsoleArchive } from '../../lib/console-db';
import type { ConsoleController, ConsoleState } from './console-store';

interface ConsoleDepsValue {
  /** Absent where only the saved sessions are listed (the History page). */
  controller?: ConsoleController;
  archive: ConsoleArchive;
}

const Ctx = createContext<ConsoleDepsValue | null>(null);

/** Provides the console's controller (one per app: the session survives leaving the page) and its saved sessions. */
export function ConsoleProvider({ controller, archive, children }: ConsoleDepsValue & { children: ReactNode }) {
  const value = useMemo(() => ({ controller, archive }), [controller, archive]);
  return <Ctx.Provider value={value}>{children}</Ctx.Provider>;
}

function useDeps(): ConsoleDepsValue {
  const c = useContext(Ctx);
  if (!c) throw new Error('console hooks outside ConsoleProvider');
  return c;
}

export function useConsole(): ConsoleController {
  const c = useDeps().controller;
  if (!c) throw new Error('useConsole without a console controller');
  return c;
}
export const useConsoleArchive = (): ConsoleArchive => useDeps().archive;

/** One slice of the console's state; re-renders only when it changes. */
export function useConsoleState<T>(selector: (s: ConsoleState) => T): T {
  return useStore(useConsole().store, selector);
}
