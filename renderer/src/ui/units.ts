// Figures as widgets show them (WidgetBody.tsx: text, table cells, sparkline, chart, progress).
import { binaryScale } from '../../../kits/protocol/binaryScale';

const BYTE_STEPS = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'] as const;

/** A number to at most two places, as a person reads it: 42, 0.12, 7.5. */
const plain = (v: number) => (Number.isInteger(v) ? String(v) : String(Number(v.toFixed(2))));

function bytes(v: number): string {
  const { value: x, step: i } = binaryScale(v, BYTE_STEPS.length - 1);
  return i === 0 ? `${plain(x)} bytes` : `${x.toFixed(1)} ${BYTE_STEPS[i]}`;
}

/** Seconds as a clock reads a length of time: 42.5 s, 7m54s, 2h05m, 3d04h. */
function duration(sec: number): string {
  const sign = sec < 0 ? '-' : '';
  const s = Math.abs(sec);
  if (s < 60) return `${sign}${plain(s)} s`;
  const whole = Math.floor(s);
  const two = (n: number) => String(n).padStart(2, '0');
  if (whole < 3600) return `${sign}${Math.floor(whole / 60)}m${two(whole % 60)}s`;
  if (whole < 86400) return `${sign}${Math.floor(whole / 3600)}h${two(Math.floor(whole / 60) % 60)}m`;
  return `${sign}${Math.floor(whole / 86400)}d${two(Math.floor(whole / 3600) % 24)}h`;
}

/**
 * A figure with its widget's unit, as a person reads it. Units pane knows are scaled:
 * `bytes` (and `bytes/s`) in binary prefixes (96.5 MiB, where the monitor had shown
 * 101146624 bytes); `ms` and `s` as lengths of time (0.83 ms, 1.5 s, 7m54s, where the
 * monitor's uptime had read 474894). Any other unit goes after the number, a fraction
 * to two places.
 */
export function withUnit(v: number, unit: string | undefined): string {
  if (unit === 'bytes') return bytes(v);
  if (unit === 'bytes/s') return `${bytes(v)}/s`;
  if (unit === 'ms') return Math.abs(v) < 1000 ? `${plain(v)} ms` : duration(v / 1000);
  if (unit === 's') return duration(v);
  return unit ? `${plain(v)} ${unit}` : plain(v);
}

/**
 * A bound value in a text widget or a table cell with a unit: a number (or a number
 * written as text, as a `kv` file's values are) goes through withUnit; anything else
 * is shown as it is, by `shown`.
 */
export function valueWithUnit(v: unknown, unit: string | undefined, shown: (v: unknown) => string): string {
  if (unit === undefined) return shown(v);
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) ? withUnit(n, unit) : shown(v);
}
