import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { encodeRecord, readJournal } from './journal';
import { readOwnFile, readOwnFileAsync, SET_ASIDE_KEEP, setAside, writeOwnFile } from './stateFiles';
import { sha256 } from './generations';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
function tmp(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'pane-statefiles-'));
  dirs.push(d);
  return d;
}
const isRoot = process.getuid?.() === 0;

describe('reading a state file', () => {
  it('reads a regular file of ours, and refuses a link, a FIFO, a directory and one past its bound, naming why', async () => {
    const d = tmp();
    fs.writeFileSync(path.join(d, 'ok'), 'hello');
    fs.writeFileSync(path.join(d, 'target'), 'not yours to read through a link');
    fs.symlinkSync(path.join(d, 'target'), path.join(d, 'link'));
    spawnSync('mkfifo', [path.join(d, 'fifo')]);
    fs.mkdirSync(path.join(d, 'dir'));
    expect(readOwnFile(path.join(d, 'ok'), 100).toString()).toBe('hello');
    expect((await readOwnFileAsync(path.join(d, 'ok'), 100)).toString()).toBe('hello');
    expect(() => readOwnFile(path.join(d, 'link'), 100)).toThrow(/link is a symbolic link, not a regular file/);
    // Refused by type before it is opened: this would block forever otherwise.
    expect(() => readOwnFile(path.join(d, 'fifo'), 100)).toThrow(/fifo is a FIFO, not a regular file/);
    await expect(readOwnFileAsync(path.join(d, 'fifo'), 100)).rejects.toThrow(/is a FIFO/);
    expect(() => readOwnFile(path.join(d, 'dir'), 100)).toThrow(/is a directory, not a regular file/);
    expect(() => readOwnFile(path.join(d, 'ok'), 3)).toThrow(/is 5 bytes, past the 3/);
    expect(readOwnFile(path.join(d, 'ok'), 3, { truncate: true }).toString()).toBe('hel');
  });

  it.skipIf(!isRoot)('refuses a file another user owns (needs root to stage)', () => {
    const d = tmp();
    fs.writeFileSync(path.join(d, 'theirs'), 'x');
    fs.chownSync(path.join(d, 'theirs'), 65534, 65534);
    expect(() => readOwnFile(path.join(d, 'theirs'), 100)).toThrow(/is owned by uid 65534, not you \(0\); another user's state is never replayed/);
  });
});

describe('setting aside', () => {
  it('moves the file into set-aside/ with a warning naming it, why and where it went', () => {
    const d = tmp();
    fs.writeFileSync(path.join(d, 'snap-000001.json'), 'x');
    const warnings: string[] = [];
    const to = setAside(d, 'snap-000001.json', 'fails its checksum', (m) => warnings.push(m), 'using an older generation');
    expect(fs.existsSync(path.join(d, 'snap-000001.json'))).toBe(false);
    expect(fs.readFileSync(to!, 'utf8')).toBe('x');
    expect(warnings).toEqual([expect.stringMatching(new RegExp(`^${d}/snap-000001\\.json fails its checksum; set aside as set-aside/snap-000001\\.json\\.\\d+-\\d+; using an older generation$`))]);
  });

  it(`replaces a set-aside/ that is a link (never moving files through it) and keeps only the newest ${SET_ASIDE_KEEP}`, () => {
    const d = tmp();
    const elsewhere = tmp();
    fs.symlinkSync(elsewhere, path.join(d, 'set-aside'));
    for (let i = 0; i < SET_ASIDE_KEEP + 5; i++) {
      fs.writeFileSync(path.join(d, `f${i}`), 'x');
      setAside(d, `f${i}`, 'is bad', () => undefined);
    }
    expect(fs.readdirSync(elsewhere)).toEqual([]);
    expect(fs.lstatSync(path.join(d, 'set-aside')).isDirectory()).toBe(true);
    expect(fs.readdirSync(path.join(d, 'set-aside'))).toHaveLength(SET_ASIDE_KEEP);
  });

  it('writes a file of ours in place of a link without writing through it', () => {
    const d = tmp();
    const victim = path.join(tmp(), 'victim');
    fs.writeFileSync(victim, 'keep');
    fs.symlinkSync(victim, path.join(d, 'daemon.pid'));
    const warnings: string[] = [];
    writeOwnFile(d, 'daemon.pid', '42\n', (m) => warnings.push(m));
    expect(fs.readFileSync(victim, 'utf8')).toBe('keep');
    expect(fs.readFileSync(path.join(d, 'daemon.pid'), 'utf8')).toBe('42\n');
    expect(warnings[0]).toMatch(/daemon\.pid is a symbolic link, not a regular file; set aside/);
  });
});

describe('journal records', () => {
  const line = (json: string) => `${sha256(json).slice(0, 16)}\t${json}\n`;

  it('skips records whose checksum holds but whose shape does not, counting them in one warning, and replays the rest', () => {
    const d = tmp();
    const f = path.join(d, 'journal-000001.jsonl');
    fs.writeFileSync(f, encodeRecord({ k: 'pane-gone', n: 3 }) + line('{"k":"pane-gone","n":9007199254740993}') + line('not json') + encodeRecord({ k: 'pane-gone', n: 4 }));
    const warnings: string[] = [];
    expect(readJournal(f, (m) => warnings.push(m))).toEqual([
      { k: 'pane-gone', n: 3 },
      { k: 'pane-gone', n: 4 },
    ]);
    expect(warnings).toEqual([expect.stringMatching(/^journal-000001\.jsonl: 2 records with a good checksum fail their schema \(first: line 2: n: .*\); skipped, the other 2 replayed$/)]);
  });

  it('does not apply a whole-state dump cut short, so a good state is never replaced by part of one', () => {
    const d = tmp();
    const f = path.join(d, 'journal-000002.jsonl');
    fs.writeFileSync(f, encodeRecord({ k: 'pane-gone', n: 7 }) + encodeRecord({ k: 'reset', records: 3 }) + encodeRecord({ k: 'pane-gone', n: 1 }) + encodeRecord({ k: 'pane-gone', n: 2 }).slice(0, 10));
    const warnings: string[] = [];
    expect(readJournal(f, (m) => warnings.push(m))).toEqual([{ k: 'pane-gone', n: 7 }]);
    expect(warnings.join('\n')).toMatch(/its whole-state dump is cut short \(1 of 3 records\); not applied, replaying the 1 records before it/);
  });
});
