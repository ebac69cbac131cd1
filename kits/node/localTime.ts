// A moment as pane prints it for a person and reads it back: local time, year first.

/** `2026-11-23 18:04:05` (to the second), or `2026-11-23 18:04` (to the minute): what restore --list and a restored pane's history label show. */
export function localTime(ms: number, to: 'second' | 'minute' = 'second'): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  const minute = `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
  return to === 'minute' ? minute : `${minute}:${p(d.getSeconds())}`;
}
