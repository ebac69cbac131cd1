// Awareness's part of a hook answer (the agents service's contributor point):
// each Claude Code hook event updates the agent's awareness, and the answer
// carries the context the agent should see and, for an edit into another agent's
// claim, a warning or an `ask`.
import path from 'node:path';
import type { HookContribution, HookEventInfo } from '../agents/hookAnswer';
import { claimWarning } from './context';
import type { AwarenessService } from './service';

/** Tools that write the file they name; other tools only read (they still join the trajectory). */
export const WRITE_TOOLS = new Set(['Edit', 'Write', 'MultiEdit', 'NotebookEdit']);

const str = (v: unknown) => (typeof v === 'string' ? v : '');

/** The files a tool call names, absolute (Claude Code passes absolute paths; relative ones resolve against cwd). */
export function toolFiles(input: Record<string, unknown>): string[] {
  const ti = (input.tool_input ?? {}) as Record<string, unknown>;
  const cwd = str(input.cwd) || '/';
  const out: string[] = [];
  for (const k of ['file_path', 'notebook_path', 'path']) {
    const v = str(ti[k]);
    if (v) out.push(path.resolve(cwd, v));
  }
  return [...new Set(out)];
}

export function hookContribution(svc: AwarenessService, ev: HookEventInfo): HookContribution | undefined {
  const aw = svc.aw;
  const cwd = str(ev.input.cwd) || undefined;
  const where = svc.whereabouts(ev.agent, ev.pane, cwd);
  switch (ev.event) {
    case 'SessionStart': {
      aw.see(ev.agent, where);
      return context(svc, ev.agent);
    }
    case 'UserPromptSubmit': {
      const prompt = str(ev.input.prompt);
      if (prompt) aw.prompt(ev.agent, prompt, where);
      else aw.see(ev.agent, where);
      return context(svc, ev.agent);
    }
    case 'PreToolUse': {
      aw.see(ev.agent, where);
      const tool = str(ev.input.tool_name);
      if (!WRITE_TOOLS.has(tool)) return undefined;
      const warnings: string[] = [];
      let ask = false;
      for (const f of toolFiles(ev.input)) {
        const held = aw.claimsOn(f, ev.agent);
        if (held.length === 0) continue;
        warnings.push(claimWarning(f, held, aw.label));
        // The project of the file decides (its .pane/awareness.json), wherever the agent runs from.
        ask ||= svc.claimConflictFor(path.dirname(f), ev.agent) === 'ask';
      }
      if (warnings.length === 0) return undefined;
      const text = warnings.join('\n');
      if (ask) return { permission: { decision: 'ask', reason: text } };
      return { additionalContext: `pane awareness warning: ${text}` };
    }
    case 'PostToolUse': {
      const tool = str(ev.input.tool_name);
      const files = toolFiles(ev.input);
      const r = aw.tool(ev.agent, { files, write: WRITE_TOOLS.has(tool) }, where);
      if (r.collisions.length === 0) return undefined;
      const who = r.collisions.map(aw.label).join(', ');
      return { additionalContext: `pane awareness warning: ${files.join(', ')} was also written or claimed by ${who} just now. Message them (pane awareness message) before going further.` };
    }
    case 'SessionEnd':
      aw.end(ev.agent);
      return undefined;
    case 'Stop':
    case 'Notification':
      aw.see(ev.agent, where);
      return undefined;
    default:
      // Other and future hook events: nothing to add, and nothing to break.
      return undefined;
  }
}

/** The turn's context, handing over pending messages; nothing when there is nothing to say. */
function context(svc: AwarenessService, agent: string): HookContribution | undefined {
  const text = svc.aw.contextFor(agent, true);
  return text ? { additionalContext: text } : undefined;
}
