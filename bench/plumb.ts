// Plumbing's cost per click (issue 38): the rules tried in order against a compiler
// error clicked at its path, with 1,000 rules before the one that fires (a person's
// file of ticket patterns, say), next to the anchor of pane's shipped rules alone.
// Real files, the server's own checks (fsChecks): what a click costs the daemon.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { firstMatch } from '../server/plumb/engine';
import { parseRules } from '../server/plumb/rules';
import { fsChecks } from '../server/plumb/service';
import { SHIPPED_FILE, SHIPPED_RULES } from '../server/plumb/shipped';
import { summarize, type Summary } from './stats';

const TEXT = 'src/server/handler.ts:88:14 - error TS2345: Argument of type "string" is not assignable to parameter of type "number".';

/** ms per click: `rules` user rules that do not match before the shipped ones, and the shipped ones alone; `clicks` each. */
export async function plumbClick(rules: number, clicks: number): Promise<{ many: Summary; shipped: Summary; fired: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pane-bench-plumb-'));
  try {
    fs.mkdirSync(path.join(dir, 'src/server'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'src/server/handler.ts'), 'x\n'.repeat(100));
    const user = Array.from({ length: rules }, (_, i) => `type is text\ndata matches 'T${i}-[A-Z]+-([0-9]+)'\nattr add id=$1\nplumb to tickets\n`).join('\n');
    const shipped = parseRules(SHIPPED_RULES, SHIPPED_FILE, 'shipped');
    const mine = parseRules(user, 'bench', 'user', shipped.vars);
    if (mine.errors.length > 0 || mine.rules.length !== rules) throw new Error(`bench: the generated rules did not parse: ${mine.errors[0]?.message}`);
    const all = [...mine.rules, ...shipped.rules];
    const checks = fsChecks(dir);
    const msg = { src: 'pane 1', wdir: dir, type: 'text', data: TEXT, click: 4, attrs: {} };
    const time = async (list: typeof all) => {
      const out: number[] = [];
      let fired = '';
      for (let i = 0; i < clicks; i++) {
        const t0 = performance.now();
        const f = await firstMatch(list, msg, checks);
        out.push(performance.now() - t0);
        fired = f ? `${f.data.slice(dir.length + 1)}:${f.attrs.line}` : 'nothing';
      }
      return { s: summarize(out), fired };
    };
    await time(all); // warm: compiled automata, the file's inode in the cache
    const many = await time(all);
    const alone = await time(shipped.rules);
    if (many.fired !== 'src/server/handler.ts:88') throw new Error(`bench: the click fired ${many.fired}`);
    return { many: many.s, shipped: alone.s, fired: many.fired };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
