/**
 * Moves focus to an element that may not be on the page yet (it renders after a store update, e.g. the verdict
 * heading once a run has started): tries on each animation frame until it exists or `ms` have passed. A newer
 * request replaces an older one.
 */
let pending = 0;

export function focusWhenPresent(id: string, ms = 3000): void {
  if (typeof document === 'undefined') return;
  const mine = ++pending;
  const until = Date.now() + ms;
  const tick = () => {
    if (mine !== pending) return;
    const el = document.getElementById(id);
    if (el) {
      if (!el.hasAttribute('tabindex')) el.setAttribute('tabindex', '-1');
      el.focus();
      return;
    }
    if (Date.now() < until) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}

/** The id of the verdict's heading (the run's verdict card, or the not-assessed message): where focus goes after Run. */
export const VERDICT_HEADING_ID = 'verdict-heading';
