// Images in panes: sixel and iTerm2's inline images (OSC 1337 File=), drawn by
// xterm.js's own image addon (@xterm/addon-image) — the pieces chafa, img2sixel,
// timg, matplotlib's sixel backends and `imgcat` print. Its ~100 KB are a chunk of
// their own, loaded after the first frame; a terminal made before they arrive gets
// the addon when they do. What a program sent before then is text it dropped, as a
// terminal without image support would. The server's screen model keeps no image
// (a re-attach redraws text; the program draws again as it would after a resize).
import type { Terminal } from '@xterm/xterm';

/**
 * Bytes of decoded pixels one pane keeps for its images (the addon's storage, in MB):
 * a screenful of photos at 4K is ~32 MB; twenty panes at the cap stay well inside a
 * tab's memory. Past it the oldest images are dropped, as the addon does.
 */
export const IMAGE_STORAGE_MB = 32;
/** Pixels of one image at most: 4096 × 4096, a 4K screen's worth; a larger one is refused by the addon. */
export const IMAGE_PIXEL_LIMIT = 4096 * 4096;
/** Encoded bytes of one sixel or inline image at most: a 4K PNG fits; more is a flood, not a picture. */
export const IMAGE_SEQUENCE_BYTES = 16 << 20;

type ImageModule = typeof import('@xterm/addon-image');
let mod: ImageModule | null = null;
let loading: Promise<unknown> | null = null;
const waiting = new Set<Terminal>();
/** Terminals given the addon already: a second would draw every image twice. */
const given = new WeakSet<Terminal>();

function addTo(m: ImageModule, term: Terminal): void {
  if (given.has(term)) return;
  given.add(term);
  try {
    term.loadAddon(
      new m.ImageAddon({
        storageLimit: IMAGE_STORAGE_MB,
        pixelLimit: IMAGE_PIXEL_LIMIT,
        sixelSizeLimit: IMAGE_SEQUENCE_BYTES,
        iipSizeLimit: IMAGE_SEQUENCE_BYTES,
        showPlaceholder: true,
      }),
    );
  } catch {
    // a disposed terminal, or no canvas: the pane shows text alone
  }
}

/** Starts loading the addon's chunk (once); every terminal waiting gets it when it lands. */
function load(): Promise<unknown> {
  loading ??= import('@xterm/addon-image').then(
    (m) => {
      mod = m;
      for (const t of waiting) addTo(m, t);
      waiting.clear();
    },
    () => waiting.clear(), // no image addon: panes show text, as before
  );
  return loading;
}

/** Gives `term` image support now, or as soon as the addon's chunk has loaded (once per terminal). */
export function withImages(term: Terminal): void {
  if (mod) return addTo(mod, term);
  waiting.add(term);
  void load();
}

/**
 * Longest a snapshot holding images waits for the addon's chunk before it is drawn
 * without them: the chunk comes from this window's own server in milliseconds, or
 * fails at once (then nothing waits); only a stalled page could reach this.
 */
export const IMAGE_WAIT_MS = 10_000;
/** A sixel or an inline image in `text` (a snapshot the server's screen model replays them into). */
const HAS_IMAGE = /\x1bP[0-9;:]*q|\x1b\]1337;File=/;

/**
 * Resolves once images can be drawn (at once when they can, or when `text` holds
 * none), or after IMAGE_WAIT_MS: a snapshot with images waits for the addon before it
 * is written, since one written before is drawn as text alone. The chunk is loaded now
 * if nothing asked for it yet; an opened terminal got `withImages`, so it has the
 * addon once the chunk has landed (the addon is given to a terminal once it is open).
 */
export async function imagesFor(text: string): Promise<void> {
  if (mod || !HAS_IMAGE.test(text)) return;
  await Promise.race([load(), new Promise<void>((r) => setTimeout(r, IMAGE_WAIT_MS))]);
}

/** A terminal going away before the chunk arrived. */
export function withoutImages(term: Terminal): void {
  waiting.delete(term);
}

/** True once images can be drawn (tests wait for it before printing one). */
export function imagesReady(): boolean {
  return mod !== null;
}
