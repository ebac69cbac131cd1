// The record of issued client certificates (decision 038): what the TLS door decides
// from it, how a typed fingerprint or name matches, and how a change is written
// (expired entries dropped, the cap, a bad or linked file refused, never overwritten).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildSync } from 'esbuild';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_ISSUED_CLIENTS, type IssuedClient } from '../protocol/serve';
import { clientVerdict, clientsStamp, matchClients, readClients, updateClients } from './tlsClients';

const fp = (b: number) => Array.from({ length: 32 }, (_, i) => (i === 0 ? b : i).toString(16).padStart(2, '0').toUpperCase()).join(':');
const later = new Date(Date.now() + 86_400_000).toISOString();
const entry = (b: number, o: Partial<IssuedClient> = {}): IssuedClient => ({ fingerprint: fp(b), name: `u@m${b}`, issuedAt: new Date().toISOString(), expires: later, ...o });

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pane-clients-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('the record of issued client certificates', () => {
  it('admits a recorded certificate and refuses a revoked, an unrecorded, or any when the record is missing or bad', async () => {
    await updateClients(dir, () => ({ clients: [entry(1), entry(2, { revokedAt: new Date().toISOString() })], result: undefined }));
    const read = readClients(dir);
    expect(clientVerdict(read, dir, fp(1), 'u@m1')).toBeNull();
    expect(clientVerdict(read, dir, fp(2), 'u@m2')).toMatch(/refused: revoked here at .* pair that machine again, from it: pane host pair HOST \(HOST: the name this host has in its hosts\/\)$/);
    expect(clientVerdict(read, dir, fp(3), 'x@y')).toMatch(/refused: it is not in .*clients\.json/);
    expect(clientVerdict(readClients(path.join(dir, 'none')), dir, fp(1), 'u@m1')).toMatch(/there is no record of issued client certificates .* pair that machine again/);
    fs.writeFileSync(path.join(dir, 'clients.json'), '{"clients": 7}');
    expect(clientVerdict(readClients(dir), dir, fp(1), 'u@m1')).toMatch(/does not read \(.*clients\.json: clients: .*\); fix it, or remove it/);
  });

  it('refuses a record that is a symbolic link, and will not write through or over it', async () => {
    const elsewhere = path.join(dir, 'elsewhere.json');
    fs.writeFileSync(elsewhere, JSON.stringify({ clients: [entry(1)] }));
    fs.symlinkSync(elsewhere, path.join(dir, 'clients.json'));
    const read = readClients(dir);
    expect(read.ok).toBe(false);
    expect(clientVerdict(read, dir, fp(1), 'u@m1')).toMatch(/does not read/);
    await expect(updateClients(dir, (c) => ({ clients: c, result: 0 }))).rejects.toThrow(/fix it, or remove it/);
    expect(fs.lstatSync(path.join(dir, 'clients.json')).isSymbolicLink()).toBe(true);
  });

  it('changes the stamp when the file is replaced, so the door reads it again', async () => {
    expect(clientsStamp(dir)).toBe('none');
    await updateClients(dir, () => ({ clients: [entry(1)], result: undefined }));
    const a = clientsStamp(dir);
    await updateClients(dir, (c) => ({ clients: c.map((x) => ({ ...x, revokedAt: new Date().toISOString() })), result: undefined }));
    expect(clientsStamp(dir)).not.toBe(a);
  });

  it('drops expired entries, then the oldest revoked past MAX_ISSUED_CLIENTS, and refuses when all are live', async () => {
    const past = new Date(Date.now() - 1000).toISOString();
    await updateClients(dir, () => ({ clients: [entry(1, { expires: past }), entry(2)], result: undefined }));
    expect((readClients(dir) as { clients: IssuedClient[] }).clients.map((c) => c.fingerprint)).toEqual([fp(2)]);
    const many = (n: number, revoked: boolean) => Array.from({ length: n }, (_, i) => ({ ...entry(3), fingerprint: fp(3).replace(/^03:01:02/, `03:${(i >> 8).toString(16).padStart(2, '0').toUpperCase()}:${(i & 255).toString(16).padStart(2, '0').toUpperCase()}`), ...(revoked ? { revokedAt: past } : {}) }));
    await updateClients(dir, () => ({ clients: [...many(2, true), ...many(MAX_ISSUED_CLIENTS - 2, false).map((c) => ({ ...c, fingerprint: c.fingerprint.replace(/^03/, '04') })), entry(9)], result: undefined }));
    const kept = (readClients(dir) as { clients: IssuedClient[] }).clients;
    expect(kept).toHaveLength(MAX_ISSUED_CLIENTS);
    expect(kept.filter((c) => c.revokedAt !== undefined)).toHaveLength(1);
    await expect(updateClients(dir, (c) => ({ clients: [...c.filter((x) => x.revokedAt === undefined), entry(10), entry(11)], result: undefined }))).rejects.toThrow(/live client certificates \(MAX_ISSUED_CLIENTS\): revoke some first/);
  });

  it('matches a fingerprint by 8 or more hex digits (colons optional), else a name', () => {
    const cs = [entry(0xab), entry(0xac, { name: 'ada@box' })];
    expect(matchClients(cs, fp(0xab).slice(0, 11)).clients.map((c) => c.fingerprint)).toEqual([fp(0xab)]);
    expect(matchClients(cs, fp(0xac).replace(/:/g, '').slice(0, 8).toLowerCase()).by).toBe('fingerprint');
    // Fewer than 8 hex digits is not a fingerprint: read as a name, which matches nothing.
    expect(matchClients(cs, 'AB:01:0').clients).toEqual([]);
    expect(matchClients(cs, 'ada@box')).toEqual({ by: 'name', clients: [cs[1]] });
  });

  it('loses no change when several processes add to it at once (the lock)', async () => {
    // Each process records ROUNDS certificates one change at a time, as pair-serve does, all at once.
    const [PROCS, ROUNDS] = [4, 12];
    const script = path.join(dir, 'writer.mjs');
    const entrySrc = `import { updateClients } from ${JSON.stringify(path.resolve(__dirname, 'tlsClients.ts'))};
const [dir, p, rounds] = process.argv.slice(2);
for (let r = 0; r < Number(rounds); r++) {
  const fp = Array.from({ length: 32 }, (_, i) => (i === 0 ? Number(p) : i === 1 ? r : 7).toString(16).padStart(2, '0').toUpperCase()).join(':');
  await updateClients(dir, (c) => ({ clients: [...c, { fingerprint: fp, name: 'p' + p, issuedAt: new Date().toISOString(), expires: new Date(Date.now() + 864e5).toISOString() }], result: 0 }));
}`;
    buildSync({ stdin: { contents: entrySrc, resolveDir: __dirname, loader: 'ts' }, bundle: true, platform: 'node', format: 'esm', outfile: script, logLevel: 'silent', banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" } });
    const runs = Array.from({ length: PROCS }, (_, p) => new Promise<number | null>((resolve) => spawn(process.execPath, [script, dir, String(p), String(ROUNDS)], { stdio: 'inherit' }).once('exit', resolve)));
    expect(await Promise.all(runs)).toEqual(Array(PROCS).fill(0));
    expect((readClients(dir) as { clients: IssuedClient[] }).clients).toHaveLength(PROCS * ROUNDS);
  }, 60_000);
});
