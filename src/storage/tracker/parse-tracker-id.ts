/** A tracker id ("12") as its row id, or null when it cannot name a row (ids are positive integers). */
export function parseTrackerID(id: string): number | null {
  if (!/^[1-9][0-9]{0,15}$/.test(id)) return null;
  const value = Number(id);
  return Number.isSafeInteger(value) ? value : null;
}
