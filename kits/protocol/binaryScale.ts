// A size in the largest power of 1024 it reaches, for the ways pane prints sizes:
// top's 1.5K, the CLI's 3.4 KiB, a widget's 96.5 MiB.

/** `n` divided by 1024 until it is under 1024 or `steps` divisions are spent: 1536 → { value: 1.5, step: 1 }. */
export function binaryScale(n: number, steps: number): { value: number; step: number } {
  let value = n;
  let step = 0;
  while (Math.abs(value) >= 1024 && step < steps) {
    value /= 1024;
    step++;
  }
  return { value, step };
}
