// Figures as widgets show them (WidgetBody.tsx: sparkline, chart, progress).

/**
 * A figure with its widget's unit, as a person reads it: `bytes` in binary prefixes
 * (96.5 MiB, where the monitor had shown 101146624 bytes), any other unit after the
 * number, a fraction to two places.
 */
export function withUnit(v: number, unit: string | undefined): string {
  if (unit === 'bytes') {
    const steps = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
    let x = v;
    let i = 0;
    while (Math.abs(x) >= 1024 && i < steps.length - 1) {
      x /= 1024;
      i++;
    }
    return i === 0 ? `${x} bytes` : `${x.toFixed(1)} ${steps[i]}`;
  }
  const n = Number.isInteger(v) ? String(v) : String(Number(v.toFixed(2)));
  return unit ? `${n} ${unit}` : n;
}
