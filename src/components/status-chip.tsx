import { STATUS_LABEL } from '../lib/format';

/** A check status as text with a colour; the text carries the meaning (never colour alone). */
export function StatusChip({ status }: { status: string }) {
  return <span className={`chip chip-${status}`}>{STATUS_LABEL[status] ?? status}</span>;
}
