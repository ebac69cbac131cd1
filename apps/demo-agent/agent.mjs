// pane's demo agent: behaves like a coding agent in a terminal with no network
// and no API keys. It takes a task, prints a plan and progress, edits files in
// its cwd (demo-work/), reports every step through `pane hook` exactly as Claude
// Code's hooks would, asks the human a question and waits, answers `pane write`
// lines, and obeys mail (handed to it as hook context, or typed in with --deliver).
// Run it with `pane agent demo` (the demo-agent app does), or `node agent.mjs`.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Lines from stdin as a queue, so input typed while it works is kept for later. */
function lineQueue(stdin) {
  const rl = readline.createInterface({ input: stdin, terminal: false });
  const queue = [];
  const waiters = [];
  let ended = false;
  rl.on('line', (l) => (waiters.length ? waiters.shift()(l) : queue.push(l)));
  rl.on('close', () => {
    ended = true;
    while (waiters.length) waiters.shift()(null);
  });
  return {
    next: () => (queue.length ? Promise.resolve(queue.shift()) : ended ? Promise.resolve(null) : new Promise((r) => waiters.push(r))),
    pending: () => queue.length,
  };
}

/** Runs `pane ARGS` with optional stdin; resolves to its stdout (never rejects: pane may be absent). */
function pane(cmd, args, input) {
  return new Promise((resolve) => {
    let out = '';
    let child;
    try {
      child = spawn(cmd[0], [...cmd.slice(1), ...args], { stdio: ['pipe', 'pipe', 'ignore'] });
    } catch {
      return resolve('');
    }
    child.stdout.on('data', (c) => (out += c));
    child.on('error', () => resolve(''));
    child.on('close', () => resolve(out));
    child.stdin.end(input ?? '');
  });
}

function slug(task) {
  return (task.toLowerCase().match(/[a-z0-9]+/g) ?? ['task']).slice(0, 5).join('-') || 'task';
}

function planFor(task, n) {
  const words = task.replace(/^\[[^\]]*\]\s*/, '');
  const base = [`read the code around "${words.slice(0, 40)}"`, 'sketch the change', 'edit the files', 'run the checks', 'tidy up and summarise'];
  return Array.from({ length: n }, (_, i) => base[Math.min(i, base.length - 1)] + (i >= base.length ? ` (${i + 1})` : ''));
}

export async function main(o = {}) {
  const steps = o.steps ?? 4;
  const delay = o.delayMs ?? 400;
  const env = o.env ?? process.env;
  const out = o.stdout ?? process.stdout;
  const cmd = o.pane ?? ['pane'];
  const name = env.PANE_AGENT ?? 'demo';
  const human = env.PANE_HUMAN ?? 'human';
  const cwd = process.cwd();
  // --resume ID continues a conversation (as `claude --resume` does): same session id, said on screen.
  const session = o.resume ?? `demo-${process.pid}-${Date.now().toString(36)}`;
  const say = (s = '') => out.write(`${s}\n`);
  const lines = lineQueue(o.stdin ?? process.stdin);
  const tasks = [];

  /** Reports a hook event like Claude Code does; returns what pane answered. */
  const hook = async (event, extra = {}) => {
    const raw = await pane(cmd, ['hook', '--app', 'demo-agent'], JSON.stringify({ session_id: session, transcript_path: '', cwd, hook_event_name: event, ...extra }));
    try {
      return JSON.parse(raw).hookSpecificOutput ?? {};
    } catch {
      return {};
    }
  };
  /** Mail handed over as context becomes tasks: the demo agent obeys its mail. */
  const takeContext = (ctx) => {
    // The "who you are" paragraph pane sends at SessionStart is for real agents; the demo knows.
    const text = (ctx?.additionalContext ?? '').split('\n\n').filter((p) => !p.startsWith('You are the agent')).join('\n\n');
    if (!text) return;
    say(`» pane says:\n${text.split('\n').map((l) => `   ${l}`).join('\n')}`);
    for (const m of text.matchAll(/^From (\S+)(?: — ([^\n]*))?:\n([\s\S]*?)(?=\n\nFrom |\s*$)/gm)) {
      tasks.push({ text: `${m[2] ? `${m[2]}: ` : ''}${m[3].trim()}`, from: m[1] });
    }
  };
  const prompt = () => out.write('demo> ');

  say(`demo agent ${name} — a pretend coding agent (no network, no keys). Working in ${cwd}.`);
  say('Give it a task, e.g. "add a usage section to the README". It asks before it finishes.');
  if (o.resume) say(`resuming conversation ${o.resume}`);
  takeContext(await hook('SessionStart', { source: o.resume ? 'resume' : 'startup' }));

  const runTask = async (task, from) => {
    const ctx = await hook('UserPromptSubmit', { prompt: task });
    say(`▶ task${from ? ` (from ${from})` : ''}: ${task}`);
    takeContext(ctx);
    const plan = planFor(task, steps);
    say('plan:');
    plan.forEach((p, i) => say(`  ${i + 1}. ${p}`));
    await pane(cmd, ['plan', name, '-'], `Working on: ${task}\n${plan.map((p, i) => `${i + 1}. ${p}`).join('\n')}\n`);
    const file = path.join(cwd, 'demo-work', `${slug(task)}.md`);
    for (let i = 0; i < plan.length; i++) {
      const pre = await hook('PreToolUse', { tool_name: 'Write', tool_input: { file_path: file } });
      takeContext(pre);
      if (pre.permissionDecision === 'deny') {
        say(`  ✋ step ${i + 1} skipped: ${pre.permissionDecisionReason ?? 'denied'}`);
        continue;
      }
      say(`step ${i + 1}/${plan.length}: ${plan[i]} …`);
      await sleep(delay);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      if (i === 0) fs.writeFileSync(file, `# ${task}\n\nBy the demo agent ${name}.\n\n`);
      fs.appendFileSync(file, `- [x] ${plan[i]}\n`);
      await hook('PostToolUse', { tool_name: 'Write', tool_input: { file_path: file } });
      if (i === Math.floor((plan.length - 1) / 2)) {
        const question = `Shall I also add a checklist for "${task.slice(0, 40)}"? [y/n] `;
        await hook('Notification', { message: `Claude needs your permission: ${question.trim()}`, notification_type: 'permission_prompt' });
        out.write(question);
        let answer = await lines.next();
        if (answer === null) return false;
        answer = answer.replace(/^\[(from|mail from) [^\]]*\]\s*/, '').trim();
        const yes = /^y/i.test(answer);
        say(yes ? '  ok, adding a checklist' : '  fine, no checklist');
        if (yes) fs.appendFileSync(file, '\n## Checklist\n- [ ] reviewed by a human\n');
      }
    }
    say(`✔ done: ${path.relative(cwd, file)} (${plan.length} steps)`);
    await hook('Stop', { stop_hook_active: false });
    return true;
  };

  for (;;) {
    while (tasks.length) {
      const t = tasks.shift();
      if (!(await runTask(t.text, t.from))) break;
    }
    prompt();
    const line = await lines.next();
    if (line === null) break;
    const text = line.trim();
    if (text === '') continue;
    const written = /^\[from ([^\]]+)\]\s*(.*)$/.exec(text);
    const mailed = /^\[mail from ([^\]]+)\]\s*(.*)$/.exec(text);
    if (written) {
      const [, who, said] = written;
      const reply = /\?\s*$/.test(said) ? `I'm ${tasks.length ? 'busy' : 'free'}; last file is in demo-work/. Ask me a task.` : `on it: ${said}`;
      await pane(cmd, who === human || !/^[a-z][a-z0-9-]*$/.test(who) ? ['write', reply] : ['write', who, reply]);
      if (!/\?\s*$/.test(said)) tasks.push({ text: said, from: who });
      else await hook('Stop', { stop_hook_active: false });
      continue;
    }
    if (mailed) tasks.push({ text: mailed[2], from: mailed[1] });
    else tasks.push({ text, from: undefined });
  }
  await hook('SessionEnd', { reason: 'exit' });
  say('bye');
  return 0;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main({ steps: Number(process.env.DEMO_STEPS ?? 4), delayMs: Number(process.env.DEMO_DELAY ?? 400) }).then((c) => process.exit(c));
}
