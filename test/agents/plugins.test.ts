// pane's opencode plugin (apps/opencode-pane.js), run as opencode runs it (an ES module
// whose export returns the hooks), with `pane` replaced by a script that keeps what it is
// given: each opencode hook and bus event runs `pane hook --app opencode` with the
// Claude-shaped JSON that apps/opencode.json's dialect maps (the shape of
// test/agents/recorded/opencode.json), and turns into pane's events. The real opencode
// 1.18.33 does not get to its plugins with no network (it waits on models.dev).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { AppFileSchema } from '../../kits/protocol/app';
import type { HookDialect } from '../../kits/protocol/agent';
import { toPaneInput } from '../../server/agents/dialect';

const root = path.resolve(__dirname, '../..');
const dialect = AppFileSchema.parse(JSON.parse(fs.readFileSync(path.join(root, 'apps/opencode.json'), 'utf8'))).agent!.hooks as HookDialect;

describe('pane’s opencode plugin', () => {
  it('runs pane hook --app opencode with each event’s Claude-shaped JSON, which the dialect maps to pane’s events', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pane-ocplugin-'));
    const fake = path.join(dir, 'pane');
    fs.writeFileSync(fake, `#!/bin/sh\n[ "$1 $2 $3" = "hook --app opencode" ] || exit 3\ncat > "${dir}/ev-$(date +%s%N).json"\n`, { mode: 0o755 });
    const saved = { PANE_BIN: process.env.PANE_BIN, PANE_AGENT: process.env.PANE_AGENT };
    process.env.PANE_BIN = fake;
    process.env.PANE_AGENT = 'oc';
    try {
      const mod = (await import(pathToFileURL(path.join(root, 'apps/opencode-pane.js')).href)) as { PanePlugin: (ctx: { directory: string }) => Promise<Record<string, (...a: unknown[]) => Promise<void>>> };
      const hooks = await mod.PanePlugin({ directory: '/work/proj' });
      await hooks.event!({ event: { type: 'session.created', properties: { info: { id: 'ses_1' } } } });
      await hooks['chat.message']!({ sessionID: 'ses_1' }, { message: {}, parts: [{ type: 'text', text: 'refactor the auth module' }] });
      await hooks['tool.execute.before']!({ tool: 'edit', sessionID: 'ses_1', callID: 'c1' }, { args: { filePath: '/work/proj/src/auth.ts' } });
      await hooks.event!({ event: { type: 'permission.asked', properties: { sessionID: 'ses_1', title: 'edit src/auth.ts' } } });
      await hooks.event!({ event: { type: 'session.idle', properties: { sessionID: 'ses_1' } } });
      const sent = fs.readdirSync(dir).filter((f) => f.startsWith('ev-')).sort().map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as Record<string, unknown>);
      expect(sent.map((e) => e.hook_event_name)).toEqual(['session.created', 'chat.message', 'tool.execute.before', 'permission.asked', 'session.idle']);
      for (const e of sent) expect(e).toMatchObject({ session_id: 'ses_1', cwd: '/work/proj' });
      const mapped = sent.map((e) => toPaneInput(dialect, e)!);
      expect(mapped.map((m) => m.hook_event_name)).toEqual(['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'Notification', 'Stop']);
      expect(mapped[1]).toMatchObject({ prompt: 'refactor the auth module' });
      expect(mapped[2]).toMatchObject({ tool_name: 'Edit', cli_tool: 'edit', tool_input: { file_path: '/work/proj/src/auth.ts' } });
      expect(mapped[3]).toMatchObject({ notification_type: 'permission_prompt' });
    } finally {
      for (const [k, v] of Object.entries(saved)) if (v === undefined) delete process.env[k];
      else process.env[k] = v;
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('does nothing outside pane (no PANE_AGENT, PANE_SOCKET or PANE_ID)', async () => {
    const saved = { PANE_AGENT: process.env.PANE_AGENT, PANE_SOCKET: process.env.PANE_SOCKET, PANE_ID: process.env.PANE_ID, PANE_BIN: process.env.PANE_BIN };
    for (const k of Object.keys(saved)) delete process.env[k];
    process.env.PANE_BIN = '/nonexistent/pane';
    try {
      const mod = (await import(pathToFileURL(path.join(root, 'apps/opencode-pane.js')).href)) as { PanePlugin: (ctx: { directory: string }) => Promise<Record<string, (...a: unknown[]) => Promise<void>>> };
      const hooks = await mod.PanePlugin({ directory: '/x' });
      await expect(hooks['chat.message']!({ sessionID: 's' }, { parts: [] })).resolves.toBeUndefined();
    } finally {
      for (const [k, v] of Object.entries(saved)) if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });
});
