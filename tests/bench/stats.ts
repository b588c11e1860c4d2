/** The `q` quantile of `values` (nearest rank); `values` is left as it is. */
export function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] as number;
}

export function median(values: number[]): number {
  return quantile(values, 0.5);
}
