// Feeds: growing files that start over when full, and blocking readers that lose nothing.
import { describe, expect, it } from 'vitest';
import { Feed, READER_MAX_BYTES } from './feed';

describe('Feed', () => {
  it('reads as a growing file by offset, and starts over empty when a line would pass its size', () => {
    const f = new Feed(20);
    f.append('one');
    f.append('two');
    expect(f.read(0, 100).toString()).toBe('one\ntwo\n');
    expect(f.read(4, 2).toString()).toBe('tw');
    f.append('three-four-five');
    expect(f.size).toBe('three-four-five\n'.length);
    expect(f.read(0, 100).toString()).toBe('three-four-five\n');
  });

  it('gives a blocking reader every line since it subscribed, across a rotation, and wakes it', async () => {
    const f = new Feed(10);
    f.append('before');
    const r = f.subscribe();
    const waiting = r.read(100, true);
    f.append('alpha');
    expect((await waiting).toString()).toBe('alpha\n');
    f.append('beta-long');
    f.append('gamma');
    expect((await r.read(100, false)).toString()).toBe('beta-long\ngamma\n');
  });

  it('ends a blocked read with nothing when the reader closes', async () => {
    const r = new Feed(100).subscribe();
    const waiting = r.read(10, true);
    r.close();
    expect((await waiting).byteLength).toBe(0);
  });

  it('re-reads after a seek back, as bash read does', async () => {
    const f = new Feed(100);
    const r = f.subscribe();
    f.append('l1');
    f.append('l2');
    const first = await r.readAt(0, 100, true);
    expect(first.data.toString()).toBe('l1\nl2\n');
    const again = await r.readAt(3, 100, true);
    expect(again).toMatchObject({ offset: 3 });
    expect(again.data.toString()).toBe('l2\n');
  });

  it('drops the oldest lines of a reader that falls far behind, and says so', async () => {
    const f = new Feed(1 << 30);
    const r = f.subscribe();
    const line = 'x'.repeat(1023);
    for (let i = 0; i < READER_MAX_BYTES / 1024 + 10; i++) f.append(line);
    expect((await r.read(200, false)).toString()).toMatch(/^- dropped \d+ lines/);
  });
});
