/** The `q` quantile of `values` (nearest rank); `values` is left as it is. */
export function quantile(values: number[], q: number): number {
  return quantileOfSorted([...values].sort((a, b) => a - b), q);
}

/** The same of values already sorted ascending: several quantiles of one large sample sort it once. */
export function quantileOfSorted(sorted: ArrayLike<number>, q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] as number;
}

export function median(values: number[]): number {
  return quantile(values, 0.5);
}
