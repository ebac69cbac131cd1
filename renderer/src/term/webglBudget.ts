// Which panes draw with WebGL. Browsers cap live WebGL contexts (≈8–16 per renderer
// process) and drop the oldest beyond that, so only the focused pane and the busiest
// few visible ones get a context; every other pane uses the DOM renderer.

/** Live WebGL contexts we allow ourselves: well under the browser's cap of ~16. */
export const WEBGL_MAX = 4;
/** Activity halves every tick, so "busiest" means busy lately, not ever. */
export const DECAY = 0.5;

export interface Candidate {
  pane: number;
  visible: boolean;
  activity: number;
}

/** A pane holding a context counts this much busier, so near-ties do not swap
 * contexts back and forth every tick (each swap costs a context and a redraw). */
export const HOLD_BONUS = 2;

/** The panes that should have WebGL: focused first, then the most active visible ones. */
export function chooseWebgl(cands: Candidate[], focused: number | null, max = WEBGL_MAX, holding: Set<number> = new Set()): Set<number> {
  const out = new Set<number>();
  if (max <= 0) return out;
  const vis = cands.filter((c) => c.visible);
  if (focused !== null && vis.some((c) => c.pane === focused)) out.add(focused);
  const score = (c: Candidate) => c.activity * (holding.has(c.pane) ? HOLD_BONUS : 1);
  const busy = vis.filter((c) => c.pane !== focused && c.activity > 0).sort((a, b) => score(b) - score(a) || a.pane - b.pane);
  for (const c of busy) {
    if (out.size >= max) break;
    out.add(c.pane);
  }
  return out;
}

/** A GPU renderer string that means WebGL is emulated on the CPU. */
const SOFTWARE_GL = /swiftshader|llvmpipe|softpipe|software|basic render/i;

/**
 * Whether WebGL is worth using here (checked once): a WebGL2 context must exist and
 * be GPU-backed. Emulated WebGL (SwiftShader, llvmpipe: headless or GPU-less hosts)
 * measured ~160 ms per frame for a scrolling 1280×800 pane, blocking the page, where
 * the DOM renderer kept frames short; so there the DOM renderer draws. `force`
 * (the ?webgl=1 URL flag) skips the GPU check.
 */
let support: boolean | undefined;
export function webgl2Supported(force = false): boolean {
  if (support !== undefined) return support;
  try {
    const c = document.createElement('canvas');
    const gl = c.getContext('webgl2');
    let ok = gl !== null;
    if (gl && !force) {
      const info = gl.getExtension('WEBGL_debug_renderer_info');
      const name = info ? String(gl.getParameter(info.UNMASKED_RENDERER_WEBGL)) : '';
      if (SOFTWARE_GL.test(name)) ok = false;
    }
    gl?.getExtension('WEBGL_lose_context')?.loseContext();
    support = ok;
  } catch {
    support = false;
  }
  return support;
}

/** Whether webgl2Supported has made its check (it costs a context: ~16 ms in a headless page). */
export function webglProbed(): boolean {
  return support !== undefined;
}
