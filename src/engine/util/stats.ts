/** Small statistics over measured numbers, shared by the checks (stream timing) and the report (chart series). */

/** p-quantile (0..1) of a list of numbers; undefined when empty. */
export function quantile(values: readonly number[], p: number): number | undefined {
  if (!values.length) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const idx = Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1));
  return sorted[idx];
}
