// Awareness on the command line: `pane claims`, `pane claim PATH`, `pane release
// PATH`, `pane handoff FROM TO`, `pane delegate TASK`, and `pane awareness ...`
// (prompt, tool, agents, predictions, resolve, message, inbox, context). Paths are
// resolved here, against the caller's directory, before they reach the server.
import path from 'node:path';
import type { Claim, Message, Prediction, Target } from '../../../protocol/awareness';
import { bool, int, str, type ParsedArgs } from '../args';
import { JSON_FLAG, type CommandSpec } from '../command';
import type { CommandContext } from '../context';
import { OpError, UsageError } from '../errors';
import { ago, STATE_WORDS, table } from '../format';

const AS = { name: 'as', type: 'string', value: 'NAME', doc: 'act for this agent (default: the agent running this, else you)' } as const;
const MESSAGE_TYPES = ['info', 'question', 'answer', 'request', 'handoff', 'warning', 'done', 'ack'] as const;
const PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;
const OUTCOMES = ['prevented', 'occurred', 'false-positive', 'expired'] as const;

/** file, dir (trailing "/" or --dir) or glob (wildcards or --glob), and the absolute path the server compares. */
export function resourceArg(p: string, a: ParsedArgs, cwd = process.cwd()): { resource: string; kind: 'file' | 'dir' | 'glob' } {
  const kind = bool(a, 'dir') ? 'dir' : bool(a, 'glob') || /[*?[]/.test(p) ? 'glob' : p.endsWith('/') ? 'dir' : 'file';
  const abs = path.resolve(cwd, p);
  return { resource: kind === 'dir' ? `${abs}/` : abs, kind };
}

/** "src/auth.ts" under the current directory, else the absolute path. */
function rel(p: string, cwd = process.cwd()): string {
  const r = path.relative(cwd, p);
  return r === '' ? '.' : r.startsWith('..') ? p : p.endsWith('/') ? `${r}/` : r;
}

/** NAME, all, pane:N or quadrant:Q. */
export function targetArg(w: string): Target {
  if (w === 'all') return { kind: 'all' };
  const m = /^(pane|quadrant):(.+)$/.exec(w);
  if (m?.[1] === 'pane') {
    if (!/^[1-9][0-9]*$/.test(m[2]!)) throw new UsageError(`'${w}': pane:N takes a pane number`);
    return { kind: 'pane', pane: Number(m[2]) };
  }
  if (m?.[1] === 'quadrant') return { kind: 'quadrant', quadrant: m[2]! };
  return { kind: 'agent', name: w };
}

export function claimsTable(claims: readonly Claim[], labels: Record<string, string>, now: number): string {
  if (claims.length === 0) return 'no claims';
  return table(
    ['RESOURCE', 'HOLDER', 'SCOPE', 'AGE', 'REASON'],
    claims.map((c) => [
      `${rel(c.path)}${c.kind === 'glob' ? ' (glob)' : ''}`,
      labels[c.holder] ?? c.holder,
      c.scope + (c.contestedBy ? `, contested by ${labels[c.contestedBy] ?? c.contestedBy}` : ''),
      ago(now - c.claimedAt),
      c.reason,
    ]),
  );
}

function predictionLine(p: Prediction): string {
  return `${p.id}  ${p.type} ${Math.round(p.confidence * 100)}%  ${p.recommendation}`;
}

function messageLine(m: Message): string {
  const to = m.target.kind === 'agent' ? m.target.name : m.target.kind === 'all' ? 'all' : m.target.kind === 'pane' ? `pane:${m.target.pane}` : `quadrant:${m.target.quadrant}`;
  return `[${m.priority === 'normal' ? '' : `${m.priority} `}${m.type}] ${m.from} → ${to}: ${m.text}`;
}

const asFlag = (a: ParsedArgs) => {
  const v = str(a, 'as');
  return v === undefined ? {} : { agent: v };
};

async function printJson(ctx: CommandContext, a: ParsedArgs, data: unknown, text: () => string): Promise<number> {
  ctx.out(bool(a, 'json') ? JSON.stringify(data, null, 2) : text());
  return 0;
}

export const awarenessCommands: CommandSpec[] = [
  {
    command: 'claims',
    summary: 'list the live claims on files, directories and globs (advisory)',
    flags: [JSON_FLAG, { name: 'log', type: 'bool', doc: 'also print the claim history' }],
    notes: ['Stale holders’ claims, lapsed TTLs and contests past their timeout are cleaned before listing.'],
    async run(ctx, a) {
      const r = await (await ctx.connect()).call('awareness/claims', { log: bool(a, 'log') });
      return printJson(ctx, a, r, () => {
        const lines = [claimsTable(r.claims, r.labels, Date.now())];
        if (bool(a, 'log')) for (const e of r.log) lines.push(`${new Date(e.at).toISOString()} ${e.action} ${rel(e.path)} ${e.holder}${e.by ? ` (by ${e.by})` : ''}`);
        return lines.join('\n');
      });
    },
  },
  {
    command: 'claim',
    summary: 'claim a file, a directory (PATH/) or a glob before editing it',
    flags: [
      AS,
      { name: 'reason', short: 'r', type: 'string', value: 'TEXT', doc: 'why (shown to the others)' },
      { name: 'shared', type: 'bool', doc: 'a shared claim (others may share it; exclusive ones conflict)' },
      { name: 'ttl', type: 'int', value: 'SECONDS', min: 1, doc: 'lapse after this long' },
      { name: 'contest', type: 'bool', doc: 'if someone holds it, contest: it passes to you after the contest timeout unless they release' },
      { name: 'dir', type: 'bool', doc: 'PATH is a directory (everything under it)', conflicts: ['glob'] },
      { name: 'glob', type: 'bool', doc: 'PATH is a glob (* and ? within a directory, ** across)' },
      JSON_FLAG,
    ],
    positionals: [{ name: 'PATH', required: true }],
    notes: ['Claims are advisory: nothing is locked, but agents are warned (or asked, where the project sets claimConflict: "ask" in .pane/awareness.json) before writing into another’s claim.'],
    async run(ctx, a) {
      const r = await (await ctx.connect()).call('awareness/claim', {
        ...asFlag(a),
        ...resourceArg(a.positionals[0]!, a),
        scope: bool(a, 'shared') ? 'shared' : 'exclusive',
        reason: str(a, 'reason') ?? '',
        contest: bool(a, 'contest'),
        ...(int(a, 'ttl') !== undefined ? { ttlSeconds: int(a, 'ttl')! } : {}),
      });
      if (bool(a, 'json')) return printJson(ctx, a, r, () => '');
      if (r.status === 'granted') {
        ctx.out(`claimed ${rel(r.claim!.path)} (${r.claim!.scope})`);
        return 0;
      }
      const who = r.conflicts.map((c) => `${r.labels[c.holder] ?? c.holder} holds ${rel(c.path)} (${c.scope}${c.reason ? `: ${c.reason}` : ''})`).join('; ');
      if (r.contested.length > 0) {
        ctx.out(`contested: ${who}; it passes to you in ${Math.round(r.contestTimeoutMs / 1000)} s unless released first`);
        return 0;
      }
      throw new OpError(`${who}; message them, or claim --contest`);
    },
  },
  {
    command: 'release',
    summary: 'release your claim on a file, directory or glob',
    flags: [AS, { name: 'force', type: 'bool', doc: 'release whoever holds it (a person clearing up after an agent)' }, { name: 'dir', type: 'bool', doc: 'PATH is a directory', conflicts: ['glob'] }, { name: 'glob', type: 'bool', doc: 'PATH is a glob' }],
    positionals: [{ name: 'PATH', required: true }],
    async run(ctx, a) {
      const { resource, kind } = resourceArg(a.positionals[0]!, a);
      const r = await (await ctx.connect()).call('awareness/release', { ...asFlag(a), resource, kind, force: bool(a, 'force') });
      if (r.released.length === 0) throw new OpError(`no claim of yours on ${rel(resource)} (see pane claims)`);
      ctx.out(r.released.map((c) => `released ${rel(c.path)}${bool(a, 'force') ? ` (held by ${c.holder})` : ''}`).join('\n'));
      return 0;
    },
  },
  {
    command: 'handoff',
    summary: 'hand one agent’s context to another (a tiered summary, sent as a handoff message)',
    flags: [{ name: 'dry', type: 'bool', doc: 'print it without sending' }, JSON_FLAG],
    positionals: [{ name: 'FROM', required: true }, { name: 'TO', required: true }],
    async run(ctx, a) {
      const [from, to] = a.positionals as [string, string];
      const r = await (await ctx.connect()).call('awareness/handoff', { from, to, send: !bool(a, 'dry') });
      return printJson(ctx, a, r, () => `${r.text}${r.message ? `\n\n(sent to ${to}; it reaches ${to} at its next turn)` : ''}`);
    },
  },
  {
    command: 'delegate',
    summary: 'which idle agents’ trajectories fit a task',
    flags: [{ name: 'max', type: 'int', value: 'N', min: 1, max: 20, doc: 'how many suggestions (default 3)' }, JSON_FLAG],
    positionals: [{ name: 'TASK', required: true, variadic: true }],
    async run(ctx, a) {
      const r = await (await ctx.connect()).call('awareness/delegate', { task: a.positionals.join(' '), max: int(a, 'max') ?? 3 });
      return printJson(ctx, a, r, () => (r.suggestions.length ? r.suggestions.map((s) => `${s.label}  ${Math.round(s.score * 100)}%  ${s.reason}`).join('\n') : `no idle agent has worked on ${r.topics.join(', ') || 'these words'}`));
    },
  },
  ...subcommands(),
];

function subcommands(): CommandSpec[] {
  return [
    {
      command: 'awareness prompt',
      summary: 'record a prompt of an agent (as its UserPromptSubmit hook would) and run a convergence pass',
      flags: [JSON_FLAG],
      positionals: [{ name: 'NAME', required: true }, { name: 'TEXT', required: true, variadic: true }],
      async run(ctx, a) {
        const [agent, ...words] = a.positionals as [string, ...string[]];
        const r = await (await ctx.connect()).call('awareness/prompt', { agent, text: words.join(' '), cwd: process.cwd() });
        return printJson(ctx, a, r, () => {
          const t = r.agent.trajectory;
          const lines = [`${r.agent.label}: topics ${r.topics.join(', ') || '—'}; key ${r.agent.keyTopics.join(', ') || '—'}`, `deepening ${t.deepening.join(', ') || '—'}; emerging ${t.emerging.join(', ') || '—'}; fading ${t.fading.join(', ') || '—'}`];
          for (const p of r.predicted) lines.push(`new: ${predictionLine(p)}`);
          return lines.join('\n');
        });
      },
    },
    {
      command: 'awareness tool',
      summary: 'record files an agent touched (--write for edits), as its tool hooks would',
      flags: [{ name: 'write', type: 'bool', doc: 'the tool wrote the files' }, { name: 'tool', type: 'string', value: 'NAME', doc: 'the tool (Edit, Read, ...)' }],
      positionals: [{ name: 'NAME', required: true }, { name: 'FILE', required: true, variadic: true }],
      async run(ctx, a) {
        const [agent, ...files] = a.positionals as [string, ...string[]];
        const r = await (await ctx.connect()).call('awareness/tool', { agent, files: files.map((f) => path.resolve(f)), write: bool(a, 'write'), tool: str(a, 'tool') ?? '' });
        if (r.warning) ctx.out(r.warning);
        if (r.collisions.length) ctx.out(`collision with ${r.collisions.join(', ')}`);
        return 0;
      },
    },
    {
      command: 'awareness agents',
      summary: 'every agent with its quadrant, key topics and trajectory',
      flags: [{ name: 'all', type: 'bool', doc: 'include stale agents' }, JSON_FLAG],
      async run(ctx, a) {
        const r = await (await ctx.connect()).call('awareness/agents', { all: bool(a, 'all') });
        return printJson(ctx, a, r, () =>
          r.agents.length === 0
            ? 'no agents'
            : table(
                ['AGENT', 'PROMPTS', 'TOPICS', 'TRAJECTORY'],
                r.agents.map((x) => [x.label + (x.stale ? ' (stale)' : x.state ? ` (${STATE_WORDS[x.state]})` : x.idle ? ' (idle)' : ''), String(x.promptCount), x.keyTopics.slice(0, 5).join(', '), `deepening ${x.trajectory.deepening.slice(0, 3).join(', ') || '—'}; emerging ${x.trajectory.emerging.slice(0, 3).join(', ') || '—'}`]),
              ),
        );
      },
    },
    {
      command: 'awareness predictions',
      summary: 'open convergence predictions, recent verdicts, accuracy and the calibrated threshold',
      flags: [{ name: 'resolved', type: 'int', value: 'N', min: 0, max: 1000, doc: 'also show the last N verdicts' }, JSON_FLAG],
      async run(ctx, a) {
        const r = await (await ctx.connect()).call('awareness/predictions', { resolved: int(a, 'resolved') ?? 0 });
        return printJson(ctx, a, r, () => {
          const acc = r.accuracy;
          const lines = r.active.length ? r.active.map(predictionLine) : ['no open predictions'];
          for (const x of r.resolved) lines.push(`${x.outcome}: ${predictionLine(x)}`);
          lines.push(`threshold ${r.threshold.toFixed(2)} (adjusted ${acc.thresholdAdjustments}×); prevented ${acc.prevented}, occurred ${acc.occurred} (missed ${acc.missed}), false positives ${acc.falsePositive}, expired ${acc.expired}`);
          return lines.join('\n');
        });
      },
    },
    {
      command: 'awareness resolve',
      summary: 'record a verdict on a prediction (counts toward calibration)',
      flags: [],
      positionals: [{ name: 'ID', required: true }, { name: 'OUTCOME', required: true, values: OUTCOMES }],
      async run(ctx, a) {
        const [id, outcome] = a.positionals as [string, (typeof OUTCOMES)[number]];
        const r = await (await ctx.connect()).call('awareness/resolve', { id, outcome });
        ctx.out(`${r.id}: ${r.outcome}`);
        return 0;
      },
    },
    {
      command: 'awareness message',
      summary: 'message an agent (NAME), a pane (pane:N), a quadrant (quadrant:top-left) or all',
      flags: [
        AS,
        { name: 'type', type: 'enum', values: MESSAGE_TYPES, value: 'TYPE', doc: `one of ${MESSAGE_TYPES.join(', ')} (default info)` },
        { name: 'priority', short: 'p', type: 'enum', values: PRIORITIES, value: 'P', doc: 'low, normal, high or urgent' },
      ],
      positionals: [{ name: 'TARGET', required: true }, { name: 'TEXT', required: true, variadic: true }],
      notes: ['It reaches the target as context at its next turn (through its hooks), and counts in its tag until then.'],
      async run(ctx, a) {
        const [to, ...words] = a.positionals as [string, ...string[]];
        const type = (str(a, 'type') ?? 'info') as (typeof MESSAGE_TYPES)[number];
        const priority = (str(a, 'priority') ?? 'normal') as (typeof PRIORITIES)[number];
        const m = await (await ctx.connect()).call('awareness/message', { ...asFlag(a), to: targetArg(to), type, priority, text: words.join(' ') });
        ctx.out(`sent ${m.id}`);
        return 0;
      },
    },
    {
      command: 'awareness inbox',
      summary: 'messages waiting for an agent (and hand them over)',
      flags: [{ name: 'peek', type: 'bool', doc: 'leave them unread' }, JSON_FLAG],
      positionals: [{ name: 'NAME' }],
      async run(ctx, a) {
        const name = a.positionals[0];
        const r = await (await ctx.connect()).call('awareness/inbox', { ...(name ? { agent: name } : {}), markRead: !bool(a, 'peek') });
        return printJson(ctx, a, r, () => (r.messages.length ? r.messages.map(messageLine).join('\n') : `no messages for ${r.agent}`));
      },
    },
    {
      command: 'awareness context',
      summary: 'the context an agent is handed at its next turn',
      flags: [],
      positionals: [{ name: 'NAME' }],
      async run(ctx, a) {
        const name = a.positionals[0];
        const r = await (await ctx.connect()).call('awareness/context', name ? { agent: name } : {});
        ctx.out(r.text || `nothing to tell ${r.agent}`);
        return 0;
      },
    },
  ];
}
