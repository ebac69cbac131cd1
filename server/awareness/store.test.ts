import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { JsonStore, withLock } from './store';

const Schema = z.object({ n: z.number() });
const dirs: string[] = [];
function store() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pane-aw-store-'));
  dirs.push(dir);
  const warnings: string[] = [];
  return { dir, warnings, s: new JsonStore(dir, (m) => warnings.push(m)) };
}
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe('JsonStore', () => {
  it('round-trips a file and leaves no temp or lock file behind', () => {
    const { dir, s } = store();
    s.save('x.json', { n: 1 });
    expect(s.load('x.json', Schema, () => ({ n: 0 }))).toEqual({ n: 1 });
    expect(fs.readdirSync(dir).sort()).toEqual(['x.json', 'x.json.bak']);
  });

  it('starts from the fallback when there is no file, without a warning', () => {
    const { s, warnings } = store();
    expect(s.load('x.json', Schema, () => ({ n: 7 }))).toEqual({ n: 7 });
    expect(warnings).toEqual([]);
  });

  it('moves a corrupt file aside, warns, and uses the last good copy', () => {
    const { dir, s, warnings } = store();
    s.save('x.json', { n: 5 });
    fs.writeFileSync(path.join(dir, 'x.json'), '{"n": 5, "trunc');
    expect(s.load('x.json', Schema, () => ({ n: 0 }))).toEqual({ n: 5 });
    expect(warnings.join('\n')).toMatch(/x\.json is unreadable \(not JSON.*moved it to .*x\.json\.corrupt-/);
    expect(warnings.join('\n')).toMatch(/using the last good copy/);
    const aside = fs.readdirSync(dir).find((f) => f.startsWith('x.json.corrupt-'))!;
    expect(fs.readFileSync(path.join(dir, aside), 'utf8')).toBe('{"n": 5, "trunc');
    // The good copy is back in place for external readers.
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'x.json'), 'utf8'))).toEqual({ n: 5 });
  });

  it('treats a file that parses but breaks the schema as corrupt too', () => {
    const { dir, s, warnings } = store();
    s.save('x.json', { n: 2 });
    fs.writeFileSync(path.join(dir, 'x.json'), '{"n": "two"}');
    expect(s.load('x.json', Schema, () => ({ n: 0 }))).toEqual({ n: 2 });
    expect(warnings[0]).toMatch(/n: /);
  });

  it('says so, and keeps both files, when the last good copy is unreadable as well', () => {
    const { dir, s, warnings } = store();
    fs.writeFileSync(path.join(dir, 'x.json'), 'garbage');
    fs.writeFileSync(path.join(dir, 'x.json.bak'), 'more garbage');
    expect(s.load('x.json', Schema, () => ({ n: 0 }))).toEqual({ n: 0 });
    expect(warnings.at(-1)).toMatch(/starting x\.json empty/);
    expect(fs.readdirSync(dir).filter((f) => f.includes('.corrupt-'))).toHaveLength(2);
  });

  it('skips a save of what the file holds already, and writes again once the data or the file changed', async () => {
    const { dir, s } = store();
    const f = path.join(dir, 'x.json');
    await s.saveAsync('x.json', { n: 1 });
    const first = fs.statSync(f);
    // Nothing new: no write, no lock file, no fsync (the same inode and mtime stay).
    await s.saveAsync('x.json', { n: 1 });
    s.save('x.json', { n: 1 });
    expect(fs.statSync(f).ino).toBe(first.ino);
    expect(fs.statSync(f).mtimeMs).toBe(first.mtimeMs);
    // New data is written (a new file renamed into place).
    await s.saveAsync('x.json', { n: 2 });
    const second = fs.statSync(f);
    expect(second.ino).not.toBe(first.ino);
    expect(s.load('x.json', Schema, () => ({ n: 0 }))).toEqual({ n: 2 });
    // Another program's edit is not taken for ours: the same save writes again. In place (its size moved)...
    fs.writeFileSync(f, '{"n": 33}\n');
    await s.saveAsync('x.json', { n: 2 });
    expect(JSON.parse(fs.readFileSync(f, 'utf8'))).toEqual({ n: 2 });
    // ...or replaced by a file of the same size (its inode moved).
    fs.writeFileSync(`${f}.new`, fs.readFileSync(f, 'utf8').replace('2', '3'));
    fs.renameSync(`${f}.new`, f);
    await s.saveAsync('x.json', { n: 2 });
    expect(JSON.parse(fs.readFileSync(f, 'utf8'))).toEqual({ n: 2 });
    // So is a file removed behind its back.
    fs.rmSync(f);
    s.save('x.json', { n: 2 });
    expect(JSON.parse(fs.readFileSync(f, 'utf8'))).toEqual({ n: 2 });
  });

  it('waits for a live lock holder and breaks the lock of a dead one', () => {
    const { dir } = store();
    const f = path.join(dir, 'y.json');
    fs.writeFileSync(`${f}.lock`, String(process.pid));
    expect(() => withLock(f, () => 1)).toThrow(/held by another process/);
    fs.writeFileSync(`${f}.lock`, '999999999');
    expect(withLock(f, () => 2)).toBe(2);
    expect(fs.existsSync(`${f}.lock`)).toBe(false);
  });
});
