import { createContext, useContext, type ReactNode } from 'react';
import { useStore } from 'zustand';
import type { TapController, TapState } from './tap-store';

const Ctx = createContext<TapController | null>(null);

/** Provides the Tap page's controller (one per app: an open tap and its conversation survive leaving the page). */
export function TapProvider({ controller, children }: { controller: TapController; children: ReactNode }) {
  return <Ctx.Provider value={controller}>{children}</Ctx.Provider>;
}

export function useTap(): TapController {
  const c = useContext(Ctx);
  if (!c) throw new Error('tap hooks outside TapProvider');
  return c;
}

/** One slice of the Tap page's state; re-renders only when it changes. */
export function useTapState<T>(selector: (s: TapState) => T): T {
  return useStore(useTap().store, selector);
}
