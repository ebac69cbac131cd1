// Images in panes: sixel and iTerm2's inline images (OSC 1337 File=), drawn by
// xterm.js's own image addon (@xterm/addon-image) — the pieces chafa, img2sixel,
// timg, matplotlib's sixel backends and `imgcat` print. Its ~100 KB are a chunk of
// their own, loaded after the first frame; a terminal made before they arrive gets
// the addon when they do. What a program sent before then is text it dropped, as a
// terminal without image support would. The server's screen model keeps no image
// (a re-attach redraws text; the program draws again as it would after a resize).
// Since the server's screen model keeps images (server/pty/screenImages.ts), a
// snapshot can hold them: `imagesFor` holds its write until this terminal can draw
// them (the chunk loaded, and the addon's sixel decoder made).
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
/** The addon each terminal was given (a second would draw every image twice). */
const given = new WeakMap<Terminal, object>();

function addTo(m: ImageModule, term: Terminal): void {
  if (given.has(term)) return;
  try {
    const addon = new m.ImageAddon({
        storageLimit: IMAGE_STORAGE_MB,
        pixelLimit: IMAGE_PIXEL_LIMIT,
        sixelSizeLimit: IMAGE_SEQUENCE_BYTES,
        iipSizeLimit: IMAGE_SEQUENCE_BYTES,
        showPlaceholder: true,
      });
    given.set(term, addon);
    term.loadAddon(addon);
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

/** How often a snapshot holding a sixel looks again whether its terminal's sixel decoder is made. */
export const DECODER_POLL_MS = 10;
const HAS_SIXEL = /\x1bP[0-9;:]*q/;

/**
 * Whether `term` can decode a sixel now. The addon (0.9) makes its sixel decoder,
 * a WebAssembly module, asynchronously when it is given to a terminal, and until
 * that resolves its handler drops every sixel it parses, silently: a snapshot
 * written at once into a new window's terminal lost its pictures whenever the page
 * was busy (a late window under load drew none). No public API says when it is
 * made, so its handler's decoder is looked at (`_handlers`, `_size`, `_dec`: the
 * pinned version's names; if they change, this says ready and nothing waits).
 */
function sixelReady(term: Terminal): boolean {
  const addon = given.get(term) as { _handlers?: Map<string, { _dec?: unknown }> } | undefined;
  if (addon === undefined) return false;
  const h = addon._handlers?.get('sixel');
  // `_dec` is not a property until it is made; `_size` (set at construction) says the handler is the shape known here.
  if (h === undefined || !('_size' in h)) return true;
  return h._dec !== undefined;
}

/** Resolves once `term`'s sixel decoder is made, or after IMAGE_WAIT_MS (then a sixel is dropped, as before). */
async function decoderMade(term: Terminal): Promise<void> {
  const deadline = Date.now() + IMAGE_WAIT_MS;
  while (!sixelReady(term) && Date.now() < deadline) await new Promise<void>((r) => setTimeout(r, DECODER_POLL_MS));
}

/**
 * Whether output `data` must wait before `term` parses it: the terminal has the
 * addon but its sixel decoder is not made yet (its first milliseconds, longer on a
 * busy page), and `data` may start a DCS (ESC P, or an ESC it ends with). Once the
 * decoder is made this is a map lookup and nothing is scanned.
 */
export function sixelMustWait(term: Terminal, data: Uint8Array): boolean {
  if (!given.has(term) || sixelReady(term)) return false;
  const last = data.byteLength - 1;
  for (let i = data.indexOf(0x1b); i !== -1; i = data.indexOf(0x1b, i + 1)) if (i === last || data[i + 1] === 0x50) return true;
  return false;
}

/** Resolves when output held by `sixelMustWait` may be parsed. */
export function sixelDecoder(term: Terminal): Promise<void> {
  return decoderMade(term);
}

/**
 * Resolves once `term` can draw the images `text` holds (at once when it holds
 * none), or after IMAGE_WAIT_MS: a snapshot with images waits before it is written,
 * since one written before is drawn as text alone. The chunk is loaded now if
 * nothing asked for it yet; then, for a sixel, the terminal's decoder must be made.
 */
export async function imagesFor(text: string, term: Terminal): Promise<void> {
  if (!HAS_IMAGE.test(text)) return;
  if (!mod) await Promise.race([load(), new Promise<void>((r) => setTimeout(r, IMAGE_WAIT_MS))]);
  if (!mod || !HAS_SIXEL.test(text)) return;
  withImages(term);
  await decoderMade(term);
}

/** A terminal going away before the chunk arrived. */
export function withoutImages(term: Terminal): void {
  waiting.delete(term);
}

/** True once images can be drawn (tests wait for it before printing one). */
export function imagesReady(): boolean {
  return mod !== null;
}
