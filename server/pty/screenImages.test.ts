// The screen model's images (screenImages.ts) with the real headless xterm: an image
// moves the cursor as the window's addon does, is kept with its place and replayed at
// it, goes with a cleared screen, and stays bounded; what it cannot read does not stop
// the parser.
import { describe, expect, it } from 'vitest';
import * as headless from '@xterm/headless';
import { MAX_IMAGE_SEQUENCE, MAX_KEPT_IMAGE_BYTES, MAX_KEPT_IMAGES, pictureSize, ScreenImages } from './screenImages';

type H = typeof headless;
const xterm: H = (headless as H & { default?: H }).default ?? headless;
const sixel = (w: number, h: number) => `\x1bPq"1;1;${w};${h}#0;2;100;0;0${Array.from({ length: Math.ceil(h / 6) }, () => `#0!${w}~`).join('-')}\x1b\\`;

function screen(cell = { w: 10, h: 20 }) {
  const term = new xterm.Terminal({ cols: 40, rows: 20, scrollback: 100, allowProposedApi: true });
  const images = new ScreenImages(term, () => cell);
  const write = (s: string) => new Promise<void>((r) => term.write(s, r));
  const lineOf = (text: string) => {
    const b = term.buffer.active;
    for (let i = 0; i < b.length; i++) if (b.getLine(i)?.translateToString(true).includes(text)) return i;
    return -1;
  };
  return { term, images, write, lineOf };
}

describe('images in the screen model', () => {
  it('moves the cursor below a sixel as the addon does, and replays it where it was', async () => {
    const s = screen();
    await s.write(`before\r\n  ${sixel(40, 60)}\r\nafter\r\n`);
    // 60 px at 20 px a row: 3 rows, the cursor on the last, then the newline.
    expect(s.lineOf('after') - s.lineOf('before')).toBe(4);
    expect(s.images.count).toBe(1);
    const replay = s.images.replay();
    // At its row and column, the cursor saved and restored around it (the parser gives the default parameter as 0: the same sixel).
    expect(replay).toBe(`\x1b7\x1b[2;3H${sixel(40, 60).replace('\x1bPq', '\x1bP0q')}\x1b8`);
  });

  it('sizes an inline image from its arguments or its own pixels', async () => {
    const png = Buffer.alloc(24);
    png.writeUInt32BE(0x89504e47, 0);
    png.write('IHDR', 12, 'ascii');
    png.writeUInt32BE(50, 16);
    png.writeUInt32BE(100, 20);
    expect(pictureSize(png)).toEqual({ w: 50, h: 100 });
    const s = screen();
    await s.write(`a\r\n\x1b]1337;File=inline=1:${png.toString('base64')}\x07\r\nb\r\n`);
    expect(s.lineOf('b') - s.lineOf('a')).toBe(6); // 100 px = 5 rows
    await s.write(`c\r\n\x1b]1337;File=inline=1;height=2:${png.toString('base64')}\x07\r\nd\r\n`);
    expect(s.lineOf('d') - s.lineOf('c')).toBe(3);
    // A download (no inline=1) draws nothing and moves nothing.
    await s.write(`e\r\n\x1b]1337;File=name=eA==:${png.toString('base64')}\x07f\r\n`);
    expect(s.lineOf('f') - s.lineOf('e')).toBe(1);
    expect(s.images.count).toBe(2);
  });

  it('forgets images with the screen they were on, and keeps at most MAX_KEPT_IMAGES', async () => {
    const s = screen();
    await s.write(`${sixel(10, 6)}\r\n`);
    await s.write('\x1b[2J');
    expect(s.images.replay()).toBe('');
    await s.write('\x1b[?1049h');
    await s.write(`${sixel(10, 6)}\r\n`);
    expect(s.images.count).toBe(1);
    await s.write('\x1b[?1049l');
    expect(s.images.count).toBe(0);
    for (let i = 0; i < MAX_KEPT_IMAGES + 8; i++) await s.write(`${sixel(10, 6)}\r\n`);
    expect(s.images.count).toBe(MAX_KEPT_IMAGES);
    // Large pictures: the bytes kept stay within what an attach reply has room for, the newest kept.
    const big = `\x1bPq"1;1;200;60#0;2;0;0;100${Array.from({ length: 1000 }, () => `#0${'~'.repeat(200)}`).join('$')}\x1b\\`; // ~200 KB, 10 bands redrawn
    for (let i = 0; i < 8; i++) await s.write(`\x1b[H${big}`);
    expect(big.length).toBeGreaterThan(200_000);
    expect(s.images.keptBytes).toBeLessThanOrEqual(MAX_KEPT_IMAGE_BYTES);
    expect(s.images.replay().length).toBeLessThanOrEqual(MAX_KEPT_IMAGE_BYTES + 1000);
    expect(s.images.count).toBeGreaterThan(0);
  });

  it('keeps no sequence over MAX_IMAGE_SEQUENCE and reads past a malformed one; the text goes on', async () => {
    const s = screen();
    const huge = `\x1bPq"1;1;10;6#0;2;0;0;100${'#0!10~'.repeat(Math.ceil(MAX_IMAGE_SEQUENCE / 6) + 10)}\x1b\\`;
    await s.write(`${huge}\r\nafter-huge\r\n`);
    expect(s.images.count).toBe(0);
    expect(s.images.notKept).toBe(1);
    await s.write('\x1b]1337;File=inline=1:!!!not-base64-at-all\x07after-junk\r\n');
    await s.write('\x1bPq"oops\x1b\\after-bad-sixel\r\n');
    expect(s.lineOf('after-huge')).toBeGreaterThanOrEqual(0);
    expect(s.lineOf('after-junk')).toBeGreaterThanOrEqual(0);
    expect(s.lineOf('after-bad-sixel')).toBeGreaterThanOrEqual(0);
  });
});
