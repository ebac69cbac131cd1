// Hook dialects (issue 25): an agent CLI's hook events, as its app file describes
// them, turned into pane's own (Claude Code's names and fields) before the state
// machine, awareness and claims see them; pane's answer written back the way that
// CLI reads it; and the settings entries that make the CLI run `pane hook --app`.
// Pure: no files, no server.
import type { HookDialect, PaneHookEvent } from '../../kits/protocol/agent';

const str = (v: unknown) => (typeof v === 'string' ? v : '');
const obj = (v: unknown): Record<string, unknown> | null => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null);

/** The name pane's hooks carry in a CLI's settings: entries with it are pane's to replace, all others are kept. */
export const PANE_HOOK_NAME = 'pane';

/** How long the CLI may wait on `pane hook` (its own budget is 1.5 s: HOOK_BUDGET_MS). */
export const DIALECT_HOOK_TIMEOUT_MS = 5_000;

/**
 * The CLI's event as pane's: the event renamed, the session id, prompt, tool name and input,
 * cwd and message under Claude Code's names, the first file-naming key of the tool input as
 * `file_path`. Null for an event the dialect does not map (pane ignores it). The CLI's own
 * fields stay beside (`cli_event` keeps its event name).
 */
export function toPaneInput(d: HookDialect, input: Record<string, unknown>): Record<string, unknown> | null {
  const cliEvent = str(input[d.fields.event]);
  const event: PaneHookEvent | undefined = Object.hasOwn(d.events, cliEvent) ? d.events[cliEvent] : undefined;
  if (event === undefined) return null;
  const out: Record<string, unknown> = { ...input, hook_event_name: event, cli_event: cliEvent };
  const put = (to: string, from: string) => {
    if (input[from] !== undefined) out[to] = input[from];
  };
  put('session_id', d.fields.session);
  put('prompt', d.fields.prompt);
  put('tool_name', d.fields.tool);
  put('cwd', d.fields.cwd);
  put('message', d.fields.message);
  const toolInput = obj(input[d.fields.toolInput]);
  if (toolInput) {
    const file = d.filePaths.map((k) => str(toolInput[k])).find((v) => v !== '');
    out.tool_input = file && toolInput.file_path === undefined ? { ...toolInput, file_path: file } : toolInput;
  }
  if (event === 'Notification') {
    const type = str(input[d.fields.notificationType]);
    // pane's state machine knows Claude's waiting notifications; a dialect names its own.
    out.notification_type = d.waiting.includes(type) ? 'permission_prompt' : type;
  }
  return out;
}

/**
 * pane's answer (Claude Code's hookSpecificOutput) in the CLI's form. `gemini`: a deny or
 * ask is `decision: "deny"` with its reason at the top (Gemini has no "ask": asking is its
 * own default), an allow says nothing; context stays in hookSpecificOutput under the CLI's event name.
 */
export function toCliAnswer(d: HookDialect, cliEvent: string, answer: Record<string, unknown> | null): Record<string, unknown> | null {
  if (answer === null || d.answer === 'claude') return answer;
  const spec = obj(answer.hookSpecificOutput) ?? {};
  const out: Record<string, unknown> = {};
  const decision = str(spec.permissionDecision);
  if (decision === 'deny') {
    out.decision = 'deny';
    out.reason = str(spec.permissionDecisionReason);
  }
  const context = str(spec.additionalContext);
  if (context !== '') out.hookSpecificOutput = { hookEventName: cliEvent, additionalContext: context };
  return Object.keys(out).length > 0 ? out : null;
}

/** A settings object a dialect writes into: an object parsed from the CLI's file. */
export type Settings = Record<string, unknown>;

/**
 * The CLI's settings with pane's hooks in: under `install.key`, for every mapped event, the
 * entries not named "pane" kept and one pane entry added running `command`; `install.settings`
 * merged in (objects key by key). What the CLI's person or the agent set otherwise stays.
 */
export function withPaneHooks(d: HookDialect, settings: Settings, command: string, env: Record<string, string>): Settings {
  const out: Settings = mergeDeep(settings, d.install.settings);
  const hooks: Record<string, unknown> = { ...(obj(out[d.install.key]) ?? {}) };
  const timeout = d.install.timeoutUnit === 'ms' ? DIALECT_HOOK_TIMEOUT_MS : DIALECT_HOOK_TIMEOUT_MS / 1000;
  for (const [cliEvent, event] of Object.entries(d.events)) {
    const kept = (Array.isArray(hooks[cliEvent]) ? (hooks[cliEvent] as unknown[]) : []).filter((g) => !isPaneGroup(g));
    const tool = event === 'PreToolUse' || event === 'PostToolUse' || event === 'PermissionRequest';
    kept.push({ ...(tool ? { matcher: d.install.toolMatcher } : {}), hooks: [{ name: PANE_HOOK_NAME, type: 'command', command, timeout, env }] });
    hooks[cliEvent] = kept;
  }
  out[d.install.key] = hooks;
  return out;
}

function isPaneGroup(g: unknown): boolean {
  const hooks = obj(g)?.hooks;
  return Array.isArray(hooks) && hooks.some((h) => obj(h)?.name === PANE_HOOK_NAME);
}

function mergeDeep(base: Settings, over: Record<string, unknown>): Settings {
  const out: Settings = { ...base };
  for (const [k, v] of Object.entries(over)) {
    const a = obj(out[k]);
    const b = obj(v);
    out[k] = a && b ? mergeDeep(a, b) : v;
  }
  return out;
}
