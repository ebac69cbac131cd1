// Awareness state survives a restart, and a corrupt state file costs a warning,
// not the state.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/awareness/clock';
import { Awareness } from '../../server/awareness/engine';
import { FILES, loadState, Saver } from '../../server/awareness/persist';
import { JsonStore } from '../../server/awareness/store';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** A server's worth of awareness over `dir`: load, run, save on change. */
function boot(dir: string, clock: ManualClock, warnings: string[] = []) {
  const store = new JsonStore(dir, (m) => warnings.push(m));
  let saver: Saver | undefined;
  const aw = new Awareness({ clock, state: loadState(store, 0.35), onChange: (p) => saver?.mark(p) });
  saver = new Saver(store, () => aw.state(), (m) => warnings.push(m));
  return { aw, saver, warnings };
}

function tmp() {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'pane-aw-persist-'));
  dirs.push(d);
  return d;
}

function populate(aw: Awareness) {
  aw.see('ada', { quadrant: 'top-left', cwd: '/p' });
  aw.see('bob', { quadrant: 'bottom-right', cwd: '/p' });
  for (const p of ['jwt auth login', 'jwt auth refresh login', 'auth login jwt session', 'jwt login auth']) {
    aw.prompt('ada', p);
    aw.prompt('bob', p);
  }
  aw.claim({ holder: 'ada', path: 'src/auth.ts', reason: 'refresh flow' });
  aw.message({ from: 'bob', target: { kind: 'agent', name: 'ada' }, type: 'question', priority: 'high', text: 'which token format?' });
}

describe('awareness persistence', () => {
  it('brings agents, claims, messages and predictions back after a restart', () => {
    const dir = tmp();
    const clock = new ManualClock();
    const one = boot(dir, clock);
    populate(one.aw);
    one.saver.flush();
    expect(fs.readdirSync(dir).sort()).toEqual(['claims.json', 'claims.json.bak', 'learned_domains.json', 'learned_domains.json.bak', 'predictions.json', 'predictions.json.bak', 'registry.json', 'registry.json.bak']);

    const two = boot(dir, clock);
    expect(two.aw.all().map((a) => [a.name, a.quadrant, a.promptCount])).toEqual([['ada', 'top-left', 4], ['bob', 'bottom-right', 4]]);
    expect(two.aw.agent('ada')!.trajectory).toEqual(one.aw.agent('ada')!.trajectory);
    expect(two.aw.claims().map((c) => [c.holder, c.path])).toEqual([['ada', '/p/src/auth.ts']]);
    expect(two.aw.pending('ada').map((m) => m.text)).toEqual(['which token format?']);
    expect(two.aw.predictions().map((p) => p.id)).toEqual(one.aw.predictions().map((p) => p.id));
    expect(two.warnings).toEqual([]);
  });

  it('external tools can read the files whole while the server writes', () => {
    const dir = tmp();
    const { aw, saver } = boot(dir, new ManualClock());
    populate(aw);
    saver.flush();
    const claims = JSON.parse(fs.readFileSync(path.join(dir, FILES.claims), 'utf8'));
    expect(claims.claims[0]).toMatchObject({ holder: 'ada', scope: 'exclusive', reason: 'refresh flow' });
  });

  it('moves a corrupt file aside with a warning and carries on from the last good copy', () => {
    const dir = tmp();
    const clock = new ManualClock();
    const one = boot(dir, clock);
    populate(one.aw);
    one.saver.flush();
    fs.writeFileSync(path.join(dir, FILES.registry), '{"agents": [{"name": "ada", "pro');
    const two = boot(dir, clock);
    expect(two.warnings.join('\n')).toMatch(/registry\.json is unreadable .*moved it to .*registry\.json\.corrupt-/);
    expect(two.aw.all().map((a) => a.name)).toEqual(['ada', 'bob']);
    expect(fs.readdirSync(dir).some((f) => f.startsWith('registry.json.corrupt-'))).toBe(true);
  });

  it('writes in the background shortly after a change, and close() waits for it', async () => {
    const dir = tmp();
    const store = new JsonStore(dir, () => {});
    let saver: Saver | undefined;
    const aw = new Awareness({ clock: new ManualClock(), onChange: (p) => saver?.mark(p) });
    saver = new Saver(store, () => aw.state(), () => {}, 20);
    aw.prompt('ada', 'jwt auth login');
    expect(fs.existsSync(path.join(dir, FILES.registry))).toBe(false);
    // No flush: the timer writes it (polled, since fsync under load takes what it takes).
    for (let i = 0; i < 250 && !fs.existsSync(path.join(dir, FILES.registry)); i++) await new Promise((r) => setTimeout(r, 20));
    expect(JSON.parse(fs.readFileSync(path.join(dir, FILES.registry), 'utf8')).agents[0].name).toBe('ada');
    aw.prompt('bob', 'css layout');
    await saver.close();
    expect(JSON.parse(fs.readFileSync(path.join(dir, FILES.registry), 'utf8')).agents.map((a: { name: string }) => a.name)).toEqual(['ada', 'bob']);
    expect(fs.readdirSync(dir).filter((f) => f.endsWith('.lock') || f.endsWith('.tmp'))).toEqual([]);
  });

  it('keeps the calibrated threshold and learned domains across restarts', () => {
    const dir = tmp();
    const clock = new ManualClock();
    const one = boot(dir, clock);
    for (let i = 0; i < 3; i++) one.aw.prompt('ada', 'jwt login with passkeys');
    one.aw.predictionState().threshold = 0.5;
    one.saver.mark(['predictions']);
    one.saver.flush();
    const two = boot(dir, clock);
    expect(two.aw.predictionState().threshold).toBe(0.5);
    expect(two.aw.domains().learned).toEqual({ auth: ['passkey'] });
  });
});
