import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GRANTS_FILE, GrantBook } from './book';
import { MAX_GRANTS } from '../../kits/protocol/grant';

let dir = '';
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
const fresh = () => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pane-grants-')));

describe('GrantBook', () => {
  it('keeps a grant across a restart by its hash alone, counts uses, and forgets what expired', () => {
    fresh();
    let t = 1_000_000;
    const a = new GrantBook(dir, undefined, () => t);
    const { record, token } = a.create('rw', 60_000, 'for bob', 'sess-1');
    const b = new GrantBook(dir, undefined, () => t);
    const r = b.check(token);
    expect(r.ok && r.grant.id).toBe(record.id);
    expect(b.list(() => 0, (id) => (id === 'sess-1' ? 'work' : undefined))[0]).toMatchObject({ id: record.id, mode: 'rw', note: 'for bob', session: 'sess-1', sessionName: 'work', uses: 1, clients: 0 });
    expect(b.ofSession('sess-1')).toEqual([record.id]);
    expect(fs.readFileSync(path.join(dir, GRANTS_FILE), 'utf8')).not.toContain(token);
    t += 60_001;
    expect(b.check(token)).toMatchObject({ ok: false });
    expect(b.list(() => 0)).toEqual([]);
  });

  it('honours no grant from a file that is not its own shape, and says why', () => {
    fresh();
    const warned: string[] = [];
    fs.writeFileSync(path.join(dir, GRANTS_FILE), JSON.stringify({ version: 1, grants: [{ id: 'g00000001', hash: 'nothex', mode: 'ro' }] }));
    const b = new GrantBook(dir, (m) => warned.push(m));
    expect(b.list(() => 0)).toEqual([]);
    expect(warned.join('\n')).toMatch(/grants\.json: grants\.0\..*no grant is honoured/);
  });

  it(`keeps at most ${MAX_GRANTS} alive, and revoking one lets its token in no more`, () => {
    const b = new GrantBook(undefined);
    const made = Array.from({ length: MAX_GRANTS }, () => b.create('ro', 60_000, undefined, 's'));
    expect(() => b.create('ro', 60_000, undefined, 's')).toThrow(/revoke some/);
    expect(b.revoke(made[0]!.record.id)).toBe(true);
    expect(b.check(made[0]!.token)).toMatchObject({ ok: false });
    expect(b.check(made[1]!.token)).toMatchObject({ ok: true });
    expect(b.revoke('g00000000')).toBe(false);
  });

  it('honours no attach grant that names no session (one an older pane wrote would show every session)', () => {
    fresh();
    const a = new GrantBook(dir);
    const { record, token } = a.create('ro', 60_000, undefined);
    const r = new GrantBook(dir).check(token);
    expect(r).toMatchObject({ ok: false });
    expect(!r.ok && r.reason).toContain(`grant ${record.id} names no session`);
    // a metrics grant shows no session and needs none
    const m = a.create('metrics', 60_000, undefined);
    expect(a.check(m.token)).toMatchObject({ ok: true });
  });
});
