// Predictive local echo's cost per keystroke (issue 26.5): the predictor's guess when
// a key is typed plus its check once the echo is parsed, against the same headless
// xterm, next to the anchor of xterm parsing that one-character echo, key by key.
import { Terminal } from '@xterm/headless';
import { screenOf } from '../renderer/src/term/localEcho';
import { Predictor } from '../renderer/src/term/predict';
import { summarize, type Summary } from './stats';

const COLS = 120;
/** A line of typing, then Enter (which drops the run, as a real one does). */
const LINE = 100;

const parse = (t: Terminal, s: string) => new Promise<void>((r) => t.write(s, r));

/** µs per key: the predictor (typed + parsed) and xterm's parse of the echo; `keys` keys. */
export async function predictEcho(keys: number): Promise<{ predictor: Summary; parse: Summary }> {
  const term = new Terminal({ cols: COLS, rows: 30, scrollback: 5000, allowProposedApi: true });
  const p = new Predictor('always');
  const predictor: number[] = [];
  const parsing: number[] = [];
  await parse(term, '$ ');
  for (let i = 0; i < keys; i++) {
    if (i > 0 && i % LINE === 0) {
      p.typed('\r', screenOf(term), performance.now());
      await parse(term, '\r\n$ ');
    }
    const c = String.fromCharCode(0x61 + (i % 26));
    const t0 = performance.now();
    p.typed(c, screenOf(term), t0);
    const t1 = performance.now();
    await parse(term, c);
    const t2 = performance.now();
    p.parsed(screenOf(term), t2);
    const t3 = performance.now();
    predictor.push((t1 - t0 + (t3 - t2)) * 1000);
    parsing.push((t2 - t1) * 1000);
  }
  if (p.lastDrop !== 'control') throw new Error(`bench: predictive echo dropped its guesses (${p.lastDrop}): the bench measured no confirmations`);
  term.dispose();
  return { predictor: summarize(predictor), parse: summarize(parsing) };
}
