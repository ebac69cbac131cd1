// The peers view: every agent as finger -s shows it, then what awareness knows of
// each (quadrant, trajectory, whom it converges with), redrawn live from agent/*
// and awareness/* events, with the agent command words on keys (finger, mail,
// write, plan, access, focus, interrupt). It is an ordinary terminal pane, so
// every renderer shows it.
import type { AgentInfo } from '../../../protocol/agent';
import type { AgentView, Prediction } from '../../../protocol/awareness';
import { partnersOf } from '../../../protocol/partners';
import type { CommandContext } from '../context';
import { fingerShort } from './agentsFinger';

/** Each agent's trajectory, and a warning line per agent it converges with. */
export function awarenessLines(agents: readonly AgentView[], preds: readonly Prediction[]): string[] {
  const label = new Map(agents.map((a) => [a.name, a.label]));
  const out: string[] = [];
  for (const a of agents) {
    const t = a.trajectory;
    const parts = (['deepening', 'emerging', 'fading', 'stable'] as const).filter((k) => t[k].length > 0).map((k) => `${k} ${t[k].slice(0, 4).join(', ')}`);
    out.push(`  ${a.label}: ${parts.join(' · ') || (a.keyTopics.join(', ') || 'no topics yet')}`);
    for (const { name, prediction: p } of partnersOf(a.name, preds)) {
      out.push(`    ⚠ converges with ${label.get(name) ?? name} on ${p.topics.slice(0, 3).join(', ')} (${p.type}, ${Math.round(p.confidence * 100)}%)`);
    }
  }
  return out;
}

const KEYS = 'j/k move · f finger · m mail · w write · p plan · a access · ⏎ focus · i interrupt · q quit';

export async function runPeers(ctx: CommandContext): Promise<number> {
  const c = await ctx.connect();
  const out = ctx.io.stdout as NodeJS.WriteStream;
  const stdin = ctx.io.stdin as NodeJS.ReadStream;
  let agents: AgentInfo[] = [];
  let aware: AgentView[] = [];
  let preds: Prediction[] = [];
  let sel = 0;
  let note = '';
  let timer: NodeJS.Timeout | undefined;

  const draw = () => {
    // Lines are cut at the pane's width: a narrow peers pane shows the first columns, never a wrapped mess.
    const cols = Math.max(2, out.columns ?? 200);
    const fit = (l: string) => [...l].slice(0, cols - 1).join('');
    const rows = fingerShort(agents);
    const lines = [`pane peers — ${agents.length} agent${agents.length === 1 ? '' : 's'}`, KEYS, '', `  ${rows[0]}`].map(fit);
    rows.slice(1).forEach((r, i) => lines.push(i === sel ? `\x1b[7m${fit(`> ${r}`)}\x1b[0m` : fit(`  ${r}`)));
    if (agents.length === 0) lines.push(fit('  (no agents yet: `pane agent run` launches the demo agent)'));
    if (aware.length > 0) lines.push('', fit('awareness — topics by trajectory, convergence'), ...awarenessLines(aware, preds).map(fit));
    if (note) lines.push('', fit(note));
    out.write(`\x1b[H\x1b[2J${lines.join('\r\n')}\r\n`);
  };
  const refresh = async () => {
    agents = (await c.call('agent/list', {})).agents;
    // A server without awareness still has peers.
    [aware, preds] = await Promise.all([
      c.call('awareness/agents', {}).then((r) => r.agents, () => []),
      c.call('awareness/predictions', {}).then((r) => r.active, () => []),
    ]);
    sel = Math.min(sel, Math.max(0, agents.length - 1));
    draw();
  };
  const soon = () => {
    timer ??= setTimeout(() => {
      timer = undefined;
      void refresh();
    }, 100);
  };
  c.onEvent((event) => {
    if (event.startsWith('agent/') || event.startsWith('awareness/')) soon();
  });
  await c.call('events/subscribe', { families: ['agent', 'awareness'] });
  await refresh();
  const tick = setInterval(draw, 1000);
  out.on('resize', draw);

  const act = async (key: string) => {
    const a = agents[sel];
    if (key === 'j' || key === '\x1b[B') sel = Math.min(agents.length - 1, sel + 1);
    else if (key === 'k' || key === '\x1b[A') sel = Math.max(0, sel - 1);
    else if (!a) return;
    else if (key === '\r' || key === 'o') {
      const p = a.panes[0];
      note = p ? (await c.call('pane/focus', { pane: p.pane }), `focused ${a.name} (pane ${p.id})`) : `${a.name} has no pane`;
    } else if (key === 'i') {
      const p = a.panes[0];
      note = p ? (await c.call('pane/exec', { pane: p.pane, line: 'interrupt', origin: 'peers' }), `interrupted ${a.name}`) : `${a.name} has no pane`;
    } else {
      const view = ({ f: 'finger', m: 'mail', w: 'write', p: 'plan', a: 'access' } as const)[key as 'f'];
      if (!view) return;
      const r = await c.call('agent/open', { name: a.name, view });
      note = `${view} ${a.name}: pane ${r.id}`;
    }
    draw();
  };

  if (stdin.isTTY) stdin.setRawMode(true);
  stdin.resume();
  await new Promise<void>((resolve) => {
    stdin.on('data', (b: Buffer) => {
      const k = b.toString('utf8');
      if (k === 'q' || k === '\x03' || k === '\x04') return resolve();
      act(k).catch((e: Error) => {
        note = `! ${e.message}`;
        draw();
      });
    });
    stdin.once('end', () => resolve());
    c.onClose(() => resolve());
  });
  clearInterval(tick);
  clearTimeout(timer);
  if (stdin.isTTY) stdin.setRawMode(false);
  stdin.pause();
  await (await import('./agentsViews')).closeView(ctx);
  return 0;
}
