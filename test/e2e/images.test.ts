// Images in a pane, in real Chromium: a sixel image a program prints (as img2sixel
// or chafa would) is drawn in the pane's image layer, in its colours; the text
// around it stays text. Decoded by xterm.js's own image addon (renderer/src/term/images.ts).
/* eslint-disable @typescript-eslint/no-explicit-any */
import fs from 'node:fs';
import zlib from 'node:zlib';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumMissing, CHROMIUM, openShell, shot, until, waitScreen, type Shell } from './shell';

let sh: Shell;

/** A sixel image `w` pixels wide and 6 × `bands` tall, all of colour register 0 = (r, g, b) in percent. */
function sixel(w: number, bands: number, [r, g, b]: [number, number, number]): string {
  const band = `#0!${w}~`;
  return `\x1bPq"1;1;${w};${bands * 6}#0;2;${r};${g};${b}${Array.from({ length: bands }, () => band).join('-')}\x1b\\`;
}

/** A PNG `w` × `h` of one colour, made here (no fixture file): what `imgcat` sends. */
function png(w: number, h: number, [r, g, b]: [number, number, number]): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const byte of buf) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([len, body, sum]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(w * 3).map((_, i) => [r, g, b][i % 3]!)]);
  const raw = Buffer.concat(Array.from({ length: h }, () => row));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', zlib.deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

/** Counts pixels close to (r, g, b) in the panes' image layers (each test draws in a colour of its own). */
function countColour(rgb: [number, number, number]): number | null {
  const layers = [...document.querySelectorAll('.xterm-image-layer')].filter((l): l is HTMLCanvasElement => l instanceof HTMLCanvasElement && l.width > 0);
  if (layers.length === 0) return null;
  let count = 0;
  for (const layer of layers) {
    const px = layer.getContext('2d')!.getImageData(0, 0, layer.width, layer.height).data;
    for (let i = 0; i < px.length; i += 4) if (Math.abs(px[i]! - rgb[0]) < 40 && Math.abs(px[i + 1]! - rgb[1]) < 40 && Math.abs(px[i + 2]! - rgb[2]) < 40 && px[i + 3]! > 200) count++;
  }
  return count;
}

describe.skipIf(chromiumMissing)(`images in panes${chromiumMissing ? ` (skipped: no browser at ${CHROMIUM})` : ''}`, () => {
  beforeAll(async () => {
    sh = await openShell({ viewport: { width: 1000, height: 640 }, init: `window.countColour = ${countColour.toString()};` });
  }, 60_000);
  afterAll(async () => {
    await sh?.close();
  });

  it('draws a sixel image a program prints, in its colours, between lines of text', async () => {
    await until(sh.page, 'the image addon to load', () => (window as any).pane.imagesReady() === true);
    const file = path.join(sh.dir, 'red.six');
    fs.writeFileSync(file, `BEFORE-IMAGE\n${sixel(120, 6, [100, 0, 0])}\nAFTER-IMAGE\n`);
    const n = await sh.page.evaluate(() => (window as any).pane.store.getState().sessions[(window as any).pane.store.getState().sessionId].focused as number);
    sh.cli('send', '-t', String(n), `cat ${file}`);
    await waitScreen(sh.page, n, 'AFTER-IMAGE');
    // The image layer holds red pixels (the addon paints decoded images there, over the text layer).
    const red = await until(sh.page, 'red pixels in the pane’s image layer', () => {
      const n = (window as any).countColour([255, 0, 0]);
      return n > 1000 ? n : null;
    });
    // 120 × 36 pixels of it, give or take the cell grid's scaling.
    expect(red).toBeGreaterThan(120 * 36 * 0.8);
    const text = await waitScreen(sh.page, n, 'AFTER-IMAGE');
    expect(text).toContain('BEFORE-IMAGE');
    await shot(sh.page, 'images-01-sixel');
  });

  it('draws an iTerm2 inline image (OSC 1337 File=, as imgcat sends) at the size it asks for', async () => {
    const file = path.join(sh.dir, 'blue.iip');
    const data = png(64, 32, [0, 0, 255]).toString('base64');
    fs.writeFileSync(file, `\x1b]1337;File=inline=1;width=64px;height=32px;size=${Buffer.from(data, 'base64').length}:${data}\x07\nAFTER-INLINE\n`);
    const n = await sh.page.evaluate(() => (window as any).pane.store.getState().sessions[(window as any).pane.store.getState().sessionId].focused as number);
    sh.cli('send', '-t', String(n), `clear; cat ${file}`);
    await waitScreen(sh.page, n, 'AFTER-INLINE');
    const blue = await until(sh.page, 'blue pixels in the pane’s image layer', () => {
      const k = (window as any).countColour([0, 0, 255]);
      return k > 1000 ? k : null;
    });
    expect(blue).toBeGreaterThan(64 * 32 * 0.8);
    await shot(sh.page, 'images-02-inline');
  });

  // A late window's terminal is new: its sixel decoder (WebAssembly) is made asynchronously, and under load
  // the snapshot used to be written before it was, dropping the picture (renderer/src/term/images.ts sixelReady).
  it('keeps an image img2sixel printed in the server’s screen model: a window attaching later draws it, in place, and the text below it stays below', async () => {
    const file = path.join(sh.dir, 'green.png');
    fs.writeFileSync(file, png(96, 48, [0, 200, 0]));
    const n = await sh.page.evaluate(() => (window as any).pane.store.getState().sessions[(window as any).pane.store.getState().sessionId].focused as number);
    sh.cli('send', '-t', String(n), `clear; echo ABOVE-IMG; img2sixel ${file}; echo BELOW-IMG`);
    await waitScreen(sh.page, n, 'BELOW-IMG');
    const first = await until(sh.page, 'green pixels in the first window', () => {
      const k = (window as any).countColour([0, 200, 0]);
      return k > 1000 ? k : null;
    });
    // The server's model moved its cursor below the image as the window did: its text puts BELOW-IMG as many rows down.
    const rowOf = (text: string, needle: string) => text.split('\n').findIndex((l) => l.includes(needle));
    const model = sh.cli('screen', '-t', String(n)).stdout;
    const shown = await waitScreen(sh.page, n, 'BELOW-IMG');
    expect(rowOf(model, 'BELOW-IMG') - rowOf(model, 'ABOVE-IMG')).toBe(rowOf(shown, 'BELOW-IMG') - rowOf(shown, 'ABOVE-IMG'));
    expect(rowOf(model, 'BELOW-IMG') - rowOf(model, 'ABOVE-IMG')).toBeGreaterThan(2);
    // A second window, opened now: its attach snapshot carries the image.
    const late = await sh.context.newPage();
    await late.goto(sh.page.url());
    await until(late, 'the late window to connect', () => (window as any).pane?.store.getState().conn.state === 'open');
    await until(late, 'the image addon to load in the late window', () => (window as any).pane.imagesReady() === true);
    await waitScreen(late, n, 'BELOW-IMG');
    const again = await until(late, 'green pixels in the late window', () => {
      const k = (window as any).countColour([0, 200, 0]);
      return k > 1000 ? k : null;
    });
    expect(again).toBeGreaterThan(first * 0.8);
    await shot(late, 'images-03-late-attach');
    await late.close();
  });

  it('draws a sixel a new pane prints at once (its snapshot or first output waits for the new terminal’s sixel decoder)', async () => {
    const file = path.join(sh.dir, 'magenta.six');
    fs.writeFileSync(file, `${sixel(90, 6, [80, 0, 80])}\nNEW-PANE-IMG\n`);
    const r = sh.cli('split', '--', 'sh', '-c', `cat ${file}; exec sleep 600`);
    expect(r.code, r.stderr).toBe(0);
    const n = Number(/\d+/.exec(r.stdout)![0]);
    await waitScreen(sh.page, n, 'NEW-PANE-IMG');
    const magenta = await until(sh.page, 'magenta pixels in the new pane', () => {
      const k = (window as any).countColour([204, 0, 204]);
      return k > 1000 ? k : null;
    });
    expect(magenta).toBeGreaterThan(90 * 36 * 0.8);
    sh.cli('close', '-t', String(n));
  });
});
