import { describe, expect, it } from 'vitest';
import type { Snapshot } from '../../kits/protocol/awareness';
import { classify, keyTopics, pushSnapshot, recentFiles } from './trajectory';

const shape = { recent: 3, deepeningShare: 0.6 };
const snap = (topics: string[], files: string[] = []): Snapshot => ({ at: 0, hash: '', topics, files, mentions: [] });
/** Scripted prompt sequence → window, as the engine builds it. */
function windowOf(seq: string[][], size = 10): Snapshot[] {
  let w: Snapshot[] = [];
  for (const t of seq) w = pushSnapshot(w, snap(t), size);
  return w;
}

describe('trajectories', () => {
  it('keeps a rolling window of the last 10 snapshots', () => {
    const w = windowOf(Array.from({ length: 14 }, (_, i) => [`t${i}`]));
    expect(w.map((s) => s.topics[0])).toEqual(['t4', 't5', 't6', 't7', 't8', 't9', 't10', 't11', 't12', 't13']);
  });

  it('classifies a topic present throughout as deepening', () => {
    const t = classify(windowOf(Array.from({ length: 10 }, () => ['auth'])), shape);
    expect(t.deepening).toEqual(['auth']);
  });

  it('classifies a topic only in the last 3 as emerging', () => {
    const t = classify(windowOf([['db'], ['db'], ['db'], ['db'], ['db', 'cache'], ['db', 'cache'], ['db', 'cache']]), shape);
    expect(t.emerging).toEqual(['cache']);
    expect(t.deepening).toEqual(['db']);
  });

  it('classifies a topic of older prompts absent from the last 3 as fading', () => {
    const t = classify(windowOf([['css'], ['css'], ['css'], ['css', 'auth'], ['auth'], ['auth'], ['auth'], ['auth']]), shape);
    expect(t.fading).toEqual(['css']);
    expect(t.deepening).toEqual(['auth']);
  });

  it('classifies a topic in both parts below 60% as stable', () => {
    const t = classify(windowOf([['log'], ['x'], ['y'], ['log'], ['z'], ['w'], ['log'], ['v'], ['log'], ['u']]), shape);
    expect(t.stable).toEqual(['log']);
  });

  it('calls everything emerging while the window has no older part', () => {
    const t = classify(windowOf([['auth'], ['auth', 'jwt']]), shape);
    expect(t).toEqual({ deepening: [], emerging: ['auth', 'jwt'], fading: [], stable: [] });
  });

  it('shows a drift from ui to auth over a scripted session', () => {
    const seq = [['ui', 'css'], ['ui', 'button'], ['ui', 'css'], ['ui', 'modal'], ['ui', 'auth'], ['auth', 'login'], ['auth', 'jwt'], ['auth', 'jwt'], ['auth', 'token'], ['auth', 'jwt']];
    const t = classify(windowOf(seq), shape);
    expect(t.deepening).toContain('auth');
    expect(t.fading).toEqual(expect.arrayContaining(['ui', 'css', 'button', 'modal', 'login']));
    expect(t.stable).toContain('jwt');
    expect(t.emerging).toContain('token');
    expect(keyTopics(windowOf(seq), 3)).toEqual(['auth', 'jwt', 'ui']);
  });

  it('weights key topics toward the newest snapshots', () => {
    expect(keyTopics(windowOf([['old'], ['old'], ['new'], ['new']]), 1)).toEqual(['new']);
  });

  it('lists touched files newest first without repeats', () => {
    expect(recentFiles([snap([], ['a', 'b']), snap([], ['b', 'c'])])).toEqual(['b', 'c', 'a']);
  });
});
