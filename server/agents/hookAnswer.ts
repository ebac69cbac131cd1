// The hook extension point: contributors (agents' own mail, awareness later) add
// context and permission decisions to a hook's answer; this file folds them into
// the JSON Claude Code documents for each event. Pure apart from the time budget.
import type { AgentState } from '../../kits/protocol/agent';

/** What one contributor adds to a hook's answer. */
export interface HookContribution {
  /** Text the agent sees as context at this turn (SessionStart, UserPromptSubmit, PreToolUse, PostToolUse). */
  additionalContext?: string;
  /** PreToolUse only: deny beats ask beats allow; reasons of the winning kind are joined. */
  permission?: { decision: 'allow' | 'deny' | 'ask'; reason: string };
}

/** The event as contributors see it, after the state machine has run. */
export interface HookEventInfo {
  agent: string;
  pane: number | null;
  event: string;
  input: Record<string, unknown>;
  state: AgentState | null;
}

/**
 * A contributor is called for every hook event of every agent; it returns nothing
 * for events it does not care about. Register with `services.agents.addHookContributor`.
 */
export type HookContributor = (ev: HookEventInfo) => HookContribution | undefined | Promise<HookContribution | undefined>;

/** A contributor slower than this is left out of the answer (the agent must never wait on pane). */
export const CONTRIBUTOR_BUDGET_MS = 250;

/** Events whose documented output carries additionalContext. */
const CONTEXT_EVENTS = new Set(['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse']);
const RANK = { allow: 1, ask: 2, deny: 3 } as const;

export async function collect(contributors: readonly HookContributor[], ev: HookEventInfo): Promise<HookContribution[]> {
  const out: HookContribution[] = [];
  await Promise.all(
    contributors.map(async (c) => {
      let timer: NodeJS.Timeout | undefined;
      try {
        const late = new Promise<undefined>((res) => {
          timer = setTimeout(() => res(undefined), CONTRIBUTOR_BUDGET_MS);
        });
        const r = await Promise.race([Promise.resolve().then(() => c(ev)), late]);
        if (r) out.push(r);
      } catch (e) {
        console.error(`pane agents: a hook contributor failed on ${ev.event}: ${(e as Error).message}`);
      } finally {
        clearTimeout(timer);
      }
    }),
  );
  return out;
}

/** Folds contributions into the hook's stdout JSON, or null when there is nothing to say. */
export function answer(event: string, parts: readonly HookContribution[]): Record<string, unknown> | null {
  const context = CONTEXT_EVENTS.has(event)
    ? parts
        .map((p) => p.additionalContext?.trim())
        .filter((s): s is string => !!s)
        .join('\n\n')
    : '';
  let decision: 'allow' | 'deny' | 'ask' | undefined;
  const reasons: string[] = [];
  if (event === 'PreToolUse') {
    for (const p of parts) {
      if (!p.permission) continue;
      const d = p.permission.decision;
      if (decision === undefined || RANK[d] > RANK[decision]) {
        decision = d;
        reasons.length = 0;
      }
      if (d === decision) reasons.push(p.permission.reason);
    }
  }
  if (context === '' && decision === undefined) return null;
  const out: Record<string, unknown> = { hookEventName: event };
  if (decision !== undefined) {
    out.permissionDecision = decision;
    out.permissionDecisionReason = reasons.join('; ');
  }
  if (context !== '') out.additionalContext = context;
  return { hookSpecificOutput: out };
}
