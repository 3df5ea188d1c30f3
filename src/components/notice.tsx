import type { ReactNode } from 'react';

/** A message box. `error` uses role=alert so screen readers announce it. */
export function Notice({ kind = 'info', title, children }: { kind?: 'info' | 'warn' | 'error'; title?: string; children?: ReactNode }) {
  return (
    <div className={`notice notice-${kind}`} role={kind === 'error' ? 'alert' : 'note'}>
      {title ? <strong>{title} </strong> : null}
      {children}
    </div>
  );
}
