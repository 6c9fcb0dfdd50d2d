/**
 * What the next run of a role will probably cost: the 90th percentile of its recent runs' costs, never less
 * than `floorUSD` (so a role with no history, or only cheap runs, is still estimated at something).
 */
export function estimateRunCost(recentCosts: readonly number[], floorUSD: number): number {
  if (recentCosts.length === 0) return floorUSD;
  const sorted = [...recentCosts].sort((a, b) => a - b);
  // Nearest rank: the smallest cost at or above 90 % of the runs.
  const p90 = sorted[Math.min(sorted.length - 1, Math.ceil(0.9 * sorted.length) - 1)] ?? floorUSD;
  return Math.max(floorUSD, p90);
}
