// The notice book: many predictions and many passes about one pair make one
// notice, updated in place; it goes when the pair's last prediction does.
import { describe, expect, it } from 'vitest';
import type { Prediction } from '../../kits/protocol/awareness';
import { partnersByName, partnersOf } from '../../kits/protocol/partners';
import { NoticeBook, pairId } from './noticeBook';

let id = 0;
const pred = (a: string, b: string, topics: string[], type: Prediction['type'] = 'approaching', confidence = 0.5): Prediction => ({
  id: `p${++id}`, type, a, b, topics, domain: null, confidence, distance: null, recommendation: '', createdAt: id, updatedAt: id, misses: 0,
});
const env = (now = 1) => ({ now, label: (n: string) => `${n} (left)`, panesOf: (n: string) => (n === 'ada' ? [1] : [2]), headline: (p: Prediction) => `${p.a} and ${p.b} converge on ${p.topics.join(', ')}` });

describe('NoticeBook', () => {
  it('makes one notice for a pair however many predictions and passes there are', () => {
    const book = new NoticeBook();
    const x = pred('ada', 'bob', ['auth', 'jwt']);
    const y = pred('bob', 'ada', ['jwt', 'login'], 'mutual-deepening', 0.9);
    const first = book.sync([x], env(1));
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({ kind: 'notice', notice: { id: 'ada+bob', agents: ['ada', 'bob'], updates: 0, panes: [1, 2] } });
    // The same state again: nothing to say.
    expect(book.sync([x], env(2))).toEqual([]);
    // A second prediction about the same pair (either order) updates the one notice.
    const second = book.sync([x, y], env(3));
    expect(second).toHaveLength(1);
    // Topics already shown keep their place; the new one follows.
    expect(second[0]).toMatchObject({ kind: 'notice', notice: { id: 'ada+bob', updates: 1, since: 1, updatedAt: 3, topics: ['auth', 'jwt', 'login'] } });
    expect(book.all()).toHaveLength(1);
  });

  it('words the notice by the strongest kind of signal, not by this pass’s top score', () => {
    const book = new NoticeBook();
    const near = pred('ada', 'bob', ['auth'], 'domain-proximity', 0.95);
    const conv = pred('ada', 'bob', ['auth'], 'approaching', 0.4);
    const out = book.sync([near, conv], env());
    expect(out[0]).toMatchObject({ notice: { message: 'ada and bob converge on auth' } });
  });

  it('withdraws the notice, naming the outcome, when the pair has no open prediction', () => {
    const book = new NoticeBook();
    book.sync([pred('ada', 'bob', ['auth'])], env());
    book.resolved('bob', 'ada', 'prevented');
    const out = book.sync([], env());
    expect(out).toEqual([{ kind: 'withdrawn', id: pairId('ada', 'bob'), outcome: 'prevented', message: 'ada (left) and bob (left): no longer converging (they coordinated)' }]);
    expect(book.all()).toEqual([]);
  });

  it('calls a notice that simply vanished stale (expired)', () => {
    const book = new NoticeBook();
    book.sync([pred('ada', 'bob', ['auth'])], env());
    expect(book.sync([], env())[0]).toMatchObject({ kind: 'withdrawn', outcome: 'expired' });
  });

  it('keeps separate pairs apart: five pairs make five notices', () => {
    const book = new NoticeBook();
    const names = ['a0', 'a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'a7', 'a8', 'a9'];
    const preds = [0, 2, 4, 6, 8].flatMap((i) => [pred(names[i]!, names[i + 1]!, ['t']), pred(names[i + 1]!, names[i]!, ['t'], 'mutual-deepening')]);
    expect(book.sync(preds, env())).toHaveLength(5);
  });

  it('syncs only the pairs it is told are due, and ends where a full sync would', () => {
    // Random passes over eight agents: each pass keeps, drops and adds predictions; one
    // book syncs every pair each time, the other only the pairs the changes named.
    let seed = 7;
    const rand = () => ((seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32);
    const names = ['a0', 'a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'a7'];
    const full = new NoticeBook();
    const part = new NoticeBook();
    let active: Prediction[] = [];
    full.sync(active, env(0));
    part.sync(active, env(0));
    for (let pass = 1; pass <= 200; pass++) {
      const due = new Set<string>();
      const next: Prediction[] = [];
      for (const p of active) {
        if (rand() < 0.2) {
          due.add(pairId(p.a, p.b));
          full.resolved(p.a, p.b, 'false-positive');
          part.resolved(p.a, p.b, 'false-positive');
        } else if (rand() < 0.2) {
          due.add(pairId(p.a, p.b));
          next.push({ ...p, topics: [...p.topics, `t${pass}`].slice(-3), confidence: rand() });
        } else next.push(p);
      }
      for (let k = 0; k < 3; k++) {
        const [a, b] = [names[Math.floor(rand() * 8)]!, names[Math.floor(rand() * 8)]!];
        if (a === b) continue;
        due.add(pairId(a, b));
        next.push(pred(a, b, [`t${pass}`], rand() < 0.5 ? 'approaching' : 'mutual-deepening', rand()));
      }
      active = next;
      const fo = full.sync(active, env(pass));
      const po = part.sync(active, env(pass), (id) => due.has(id));
      expect(po).toEqual(fo);
      expect(part.all()).toEqual(full.all());
    }
  });
});

describe('partnersByName', () => {
  it('names, for each agent, every other agent once with its most confident prediction, most confident first', () => {
    const names = ['ada', 'bob', 'cy', 'dee', 'eve'];
    const preds: Prediction[] = [];
    for (let i = 0; i < 40; i++) preds.push(pred(names[i % 5]!, names[(i * 3 + 1) % 5]!, ['t'], 'approaching', ((i * 37) % 100) / 100));
    // The rule spelled out one agent at a time, as a reference.
    const reference = (n: string) => {
      const best = new Map<string, Prediction>();
      for (const p of preds) {
        if (p.a !== n && p.b !== n) continue;
        const other = p.a === n ? p.b : p.a;
        const had = best.get(other);
        if (!had || p.confidence > had.confidence) best.set(other, p);
      }
      return [...best].sort(([, x], [, y]) => y.confidence - x.confidence).map(([name, prediction]) => ({ name, prediction }));
    };
    const all = partnersByName(preds);
    for (const n of names) {
      expect(reference(n).length).toBeGreaterThan(0);
      expect(all.get(n)).toEqual(reference(n));
      expect(partnersOf(n, preds)).toEqual(reference(n));
    }
    expect(partnersOf('nobody', preds)).toEqual([]);
  });
});
