import { Terminal } from '@xterm/headless';
import { describe, expect, it } from 'vitest';
import { incompleteTail, Utf8Carry } from './utf8Carry';

const bytes = (...b: number[]) => new Uint8Array(b);
/** Text with a character of every length, the 0x80 continuations xterm 6.0 lost among them. */
const TEXT = 'a — b … “q” • 𐀀 😀 é ü 中 \u2014end';

function screenOf(writes: Uint8Array[], carry: boolean): Promise<string> {
  const t = new Terminal({ cols: 80, rows: 2, allowProposedApi: true });
  const c = new Utf8Carry();
  for (const w of writes) t.write(carry ? c.take(w) : w);
  return new Promise((resolve) => t.write('', () => resolve(t.buffer.active.getLine(0)!.translateToString(true))));
}

describe('incompleteTail', () => {
  it('counts the bytes of an unfinished character at the end, and nothing else', () => {
    expect(incompleteTail(bytes())).toBe(0);
    expect(incompleteTail(bytes(0x41))).toBe(0);
    expect(incompleteTail(bytes(0x41, 0xc3))).toBe(1);
    expect(incompleteTail(bytes(0xc3, 0xa9))).toBe(0);
    expect(incompleteTail(bytes(0x41, 0xe2, 0x80))).toBe(2);
    expect(incompleteTail(bytes(0xe2, 0x80, 0x94))).toBe(0);
    expect(incompleteTail(bytes(0xf0, 0x90, 0x80))).toBe(3);
    expect(incompleteTail(bytes(0xf0, 0x90, 0x80, 0x80))).toBe(0);
    // Stray continuation bytes are no character's start: they go to xterm, which drops them as before.
    expect(incompleteTail(bytes(0x41, 0x80))).toBe(0);
    expect(incompleteTail(bytes(0x80, 0x80, 0x80))).toBe(0);
  });
});

describe('Utf8Carry', () => {
  it('xterm 6.0 alone loses a character split after a 0x80 continuation: the case this exists for', async () => {
    // If this starts passing, xterm fixed its decoder (xtermjs/xterm.js#6003) and decision 054 can go.
    expect(await screenOf([bytes(0x41, 0xe2, 0x80), bytes(0x94, 0x42)], false)).toBe('AB');
  });

  it('gives xterm the same screen for the text cut at every byte, and cut into single bytes', async () => {
    const all = new TextEncoder().encode(TEXT);
    for (let cut = 0; cut <= all.byteLength; cut++) {
      expect(await screenOf([all.subarray(0, cut), all.subarray(cut)], true), `cut at byte ${cut}`).toBe(TEXT);
    }
    expect(await screenOf([...all].map((b) => bytes(b)), true)).toBe(TEXT);
  });

  it('holds at most the unfinished character, copies it (the caller may reuse its buffer), and forgets it on reset', () => {
    const c = new Utf8Carry();
    const buf = bytes(0x41, 0xe2, 0x80);
    expect([...c.take(buf)]).toEqual([0x41]);
    expect(c.holding).toBe(2);
    buf.fill(0);
    expect([...c.take(bytes(0x94))]).toEqual([0xe2, 0x80, 0x94]);
    expect(c.holding).toBe(0);
    c.take(bytes(0xf0, 0x9f));
    c.reset();
    expect([...c.take(bytes(0x41))]).toEqual([0x41]);
  });
});
