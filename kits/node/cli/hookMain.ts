// `pane hook` as an agent CLI runs it (no flags): straight to runHook, without the
// command table, so each event pays little more than Node's own start-up.
import { defaultSocketPath } from '../paths';
import { runHook } from './hook';

export function hookMain(): Promise<number> {
  const env = process.env;
  const line = (s: NodeJS.WriteStream) => (t: string) => void s.write(t.endsWith('\n') ? t : `${t}\n`);
  return runHook({
    socketPath: env.PANE_SOCKET ?? defaultSocketPath(),
    env,
    stdin: process.stdin,
    out: line(process.stdout),
    err: line(process.stderr),
    // The socket is $PANE_SOCKET's, so $PANE_TOKEN is its own (the rule in CommandContext.agentToken).
    token: env.PANE_TOKEN || undefined,
  });
}
