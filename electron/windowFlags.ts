// Chromium features the pane window turns off, in every host that draws it: the
// Chromium window (electron/chromium.ts), Electron (electron/main.ts), and the
// benches' and e2e suite's browsers (bench/page.ts, test/e2e/shell.ts), which
// measure and test what the window gets.

/**
 * DeferRendererTasksAfterInput: after a key, Chromium's renderer holds back
 * networking and posted-message tasks until the next frame has been drawn
 * (a scheduling policy for web pages' input-to-paint). In a terminal the task
 * it holds back is the key's own echo arriving on the WebSocket: traced with
 * the main thread idle, the echo's message waited up to 16 ms for a frame that
 * then had nothing new to draw, and was drawn one frame late (issue 35, full
 * bench: next-frame p99 35.0 ms and 70% on the first frame after the key; with it
 * off, 18.6 ms and 98%; beside a flood, 43.1 → 25.6 ms). Keys still arrive whole
 * and in order with it off (decision 050; test/e2e/stream.test.ts types under a
 * throttled page and a flood and compares).
 */
export const DISABLED_FEATURES = ['DeferRendererTasksAfterInput'] as const;

/** The command-line switch for DISABLED_FEATURES. */
export function windowFeatureFlags(): string[] {
  return [`--disable-features=${DISABLED_FEATURES.join(',')}`];
}
