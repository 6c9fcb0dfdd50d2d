/**
 * Calendar days in the process's time zone (the one `flotilla runs` shows times in): a run counts on the day
 * it was requested there. Days are stepped by the calendar, not by 24 h, so a daylight-saving change does not
 * skip or repeat a day.
 */

/** `2026-11-20` for the local day containing `ms`. */
export function localDayKey(ms: number): string {
  const date = new Date(ms);
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** Local midnight of the day containing `ms`, moved by `days` calendar days. */
export function startOfLocalDay(ms: number, days = 0): number {
  const date = new Date(ms);
  return new Date(date.getFullYear(), date.getMonth(), date.getDate() + days).getTime();
}

/** The local days from the one containing `from` to the one containing `to`, both included. */
export function listLocalDays(from: number, to: number): string[] {
  const days: string[] = [];
  for (let day = startOfLocalDay(from); day <= to; day = startOfLocalDay(day, 1)) days.push(localDayKey(day));
  return days;
}
