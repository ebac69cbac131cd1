// Chromium features the pane window turns off, in every host that draws it: the
// Chromium window (electron/chromium.ts), Electron (electron/main.ts), and the
// benches' browser (bench/page.ts), which measures what the window gets.

/**
 * DeferRendererTasksAfterInput: after a key, Chromium's renderer holds back
 * networking and posted-message tasks until the next frame has been drawn
 * (a scheduling policy for web pages' input-to-paint). In a terminal the task
 * it holds back is the key's own echo arriving on the WebSocket: traced with
 * the main thread idle, the echo's message waited up to 16 ms for a frame that
 * then had nothing new to draw, and was drawn one frame late (issue 35: 15% of
 * idle echoes, next-frame p99 34 ms; with it off, p99 21 ms).
 */
export const DISABLED_FEATURES = ['DeferRendererTasksAfterInput'] as const;

/** The command-line switch for DISABLED_FEATURES. */
export function windowFeatureFlags(): string[] {
  return [`--disable-features=${DISABLED_FEATURES.join(',')}`];
}
