// Hook dialects (issue 25): an agent CLI's hook events, as its app file describes
// them, turned into pane's own (Claude Code's names and fields) before the state
// machine, awareness and claims see them; pane's answer written back the way that
// CLI reads it. The hook files that make the CLI run `pane hook --app` are
// kits/node/hookFiles.ts's (the CLI's `pane hook install` writes them too). Pure.
import type { HookDialect, PaneHookEvent } from '../../kits/protocol/agent';

export { codexTrust, DIALECT_HOOK_TIMEOUT_MS, isPaneCommand, PANE_HOOK_NAME, paneHookCommand, withCodexTrust, withoutPaneHooks, withPaneHooks, type Settings } from '../../kits/node/hookFiles';

const str = (v: unknown) => (typeof v === 'string' ? v : '');
const obj = (v: unknown): Record<string, unknown> | null => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null);

/** A tool input sent as a JSON string (Copilot's toolArgs) is parsed only up to this size. */
const MAX_TOOL_ARGS_CHARS = 64 * 1024;

/** A CLI payload's cwd: a string, or the first string of a list (Cursor's workspace_roots). */
function cwdOf(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return v.find((x): x is string => typeof x === 'string');
  return undefined;
}

function toolInputOf(v: unknown): Record<string, unknown> | null {
  if (typeof v === 'string' && v.length <= MAX_TOOL_ARGS_CHARS) {
    try {
      return obj(JSON.parse(v));
    } catch {
      return null;
    }
  }
  return obj(v);
}

/**
 * The CLI's event as pane's: the event renamed, the session id, prompt, tool name and input,
 * cwd and message under Claude Code's names, the first file-naming key of the tool input (else
 * of the payload: Cursor's afterFileEdit) as `file_path`. Null for an event the dialect does
 * not map (pane ignores it). The CLI's own fields stay beside (`cli_event` keeps its name).
 */
export function toPaneInput(d: HookDialect, input: Record<string, unknown>): Record<string, unknown> | null {
  const cliEvent = str(input[d.fields.event]) || str(input.hook_event_name);
  const event: PaneHookEvent | undefined = Object.hasOwn(d.events, cliEvent) ? d.events[cliEvent] : undefined;
  if (event === undefined) return null;
  const out: Record<string, unknown> = { ...input, hook_event_name: event, cli_event: cliEvent };
  const put = (to: string, from: string) => {
    if (input[from] !== undefined) out[to] = input[from];
  };
  put('session_id', d.fields.session);
  put('prompt', d.fields.prompt);
  put('tool_name', d.fields.tool);
  put('message', d.fields.message);
  const cwd = cwdOf(input[d.fields.cwd]);
  if (cwd !== undefined) out.cwd = cwd;
  const toolInput = toolInputOf(input[d.fields.toolInput]);
  const fileIn = (o: Record<string, unknown>) => d.filePaths.map((k) => str(o[k])).find((v) => v !== '');
  if (toolInput) {
    const file = fileIn(toolInput);
    out.tool_input = file && toolInput.file_path === undefined ? { ...toolInput, file_path: file } : toolInput;
  } else {
    const file = fileIn(input);
    if (file) out.tool_input = { file_path: file };
  }
  // A write by the CLI's own name is pane's `Edit` (claims, claim warnings); its name stays as cli_tool.
  const tool = str(input[d.fields.tool]);
  if ((tool !== '' && d.writeTools.includes(tool)) || d.writeEvents.includes(cliEvent)) {
    if (tool !== '') out.cli_tool = tool;
    out.tool_name = 'Edit';
  }
  if (event === 'Notification') {
    const type = str(input[d.fields.notificationType]);
    // pane's state machine knows Claude's waiting notifications; a dialect names its own.
    out.notification_type = d.waiting.includes(type) || (d.install.kind === 'notify-command' && type === '') ? 'permission_prompt' : type;
  }
  return out;
}

/**
 * pane's answer (Claude Code's hookSpecificOutput) in the CLI's form. Context is kept only on
 * the events the dialect says the CLI reads it from. `gemini`: a deny (or ask: Gemini asks by
 * itself) is `decision: "deny"` with its reason; `flat`: Copilot's top-level fields; `cursor`:
 * `permission`/`agent_message`, `additional_context`; `none`: nothing (the CLI ignores output).
 */
export function toCliAnswer(d: HookDialect, cliEvent: string, answer: Record<string, unknown> | null): Record<string, unknown> | null {
  if (answer === null || d.answer === 'none') return null;
  const event = d.events[cliEvent];
  const spec = obj(answer.hookSpecificOutput) ?? {};
  const decision = str(spec.permissionDecision);
  const reason = str(spec.permissionDecisionReason);
  const context = event !== undefined && d.context.includes(event) ? str(spec.additionalContext) : '';
  const out: Record<string, unknown> = {};
  switch (d.answer) {
    case 'claude': {
      const kept: Record<string, unknown> = { ...spec };
      if (context === '') delete kept.additionalContext;
      const rest = Object.keys(kept).filter((k) => k !== 'hookEventName');
      if (rest.length > 0) out.hookSpecificOutput = { ...kept, hookEventName: cliEvent };
      for (const [k, v] of Object.entries(answer)) if (k !== 'hookSpecificOutput') out[k] = v;
      break;
    }
    case 'gemini':
      if (decision === 'deny' || decision === 'ask') Object.assign(out, { decision: 'deny', reason });
      if (context !== '') out.hookSpecificOutput = { hookEventName: cliEvent, additionalContext: context };
      break;
    case 'flat':
      if (decision === 'deny' || decision === 'ask') Object.assign(out, { permissionDecision: decision, permissionDecisionReason: reason });
      if (context !== '') out.additionalContext = context;
      break;
    case 'cursor':
      if (decision === 'deny' || decision === 'ask') Object.assign(out, { permission: decision, user_message: reason, agent_message: reason });
      if (context !== '') out.additional_context = context;
      break;
  }
  return Object.keys(out).length > 0 ? out : null;
}

