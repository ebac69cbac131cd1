// What a command handler is given: the streams, the environment, the resolved
// socket, a lazily opened server connection, and the -t default rule.
import type { PaneRef } from '../../protocol/ids';
import { PANE_REF, str, type ParsedArgs } from './args';
import { OpError, UsageError } from './errors';
import type { Connection } from '../../client/connection';
import { reachServer } from './reach';

/** The process's streams and environment; tests pass their own. */
export interface CliIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream;
  env: Record<string, string | undefined>;
}

export class CommandContext {
  private client: Promise<Connection> | undefined;

  constructor(
    readonly io: CliIo,
    /** The server socket: --socket, then $PANE_SOCKET, then the default path. */
    readonly socketPath: string,
    /** The command's name, for messages. */
    readonly command: string,
    /** Whether --socket was given explicitly (then $PANE_ID may name a pane elsewhere). */
    readonly socketFromFlag: boolean,
  ) {}

  /** The server connection, opened on first use (help and usage errors never connect). */
  connect(): Promise<Connection> {
    if (!this.client) {
      try {
        const token = this.identityToken();
        // $PANE_GRANT: this CLI speaks as the guest of the attach grant someone handed its user (pane grant).
        const grant = this.io.env.PANE_GRANT;
        this.client = reachServer(this.socketPath, { ...(token === undefined ? {} : { token }), ...(grant ? { grant } : {}), dropOnClose: true });
      } catch (e) {
        return Promise.reject(e);
      }
    }
    return this.client;
  }

  /**
   * The token every view (CLI, mount, MCP) connects with. In an agent's environment
   * ($PANE_AGENT set) a missing $PANE_TOKEN is refused rather than silently acting
   * as the human, whose connection has no .access to limit it.
   */
  identityToken(): string | undefined {
    const agent = this.io.env.PANE_AGENT;
    const t = this.io.env.PANE_TOKEN;
    if (agent !== undefined && agent !== '' && (t === undefined || t === '')) {
      throw new OpError(`this is agent ${agent}'s environment ($PANE_AGENT) but $PANE_TOKEN is not set: refusing to act as the human; run it from the agent's pane, or unset PANE_AGENT if you are the person`);
    }
    return this.agentToken();
  }

  /**
   * Inside an agent's pane, $PANE_TOKEN makes every call the agent's own (limited by
   * its .access). Like $PANE_ID it belongs to the server at $PANE_SOCKET only.
   */
  agentToken(): string | undefined {
    const t = this.io.env.PANE_TOKEN;
    if (t === undefined || t === '') return undefined;
    const home = this.io.env.PANE_SOCKET;
    return this.socketFromFlag && home !== undefined && home !== this.socketPath ? undefined : t;
  }

  /** Closes the connection if one was opened. */
  async close(): Promise<void> {
    if (!this.client) return;
    try {
      (await this.client).close();
    } catch {
      // never opened: nothing to close
    }
  }

  /**
   * The pane a command aims at: -t, else $PANE_ID when we run inside a pane of
   * this same server, else undefined (the server picks the focused pane).
   */
  target(a: ParsedArgs): PaneRef | undefined {
    const t = str(a, 'target');
    if (t !== undefined) return asRef(t);
    const id = this.io.env.PANE_ID;
    if (id === undefined || id === '') return undefined;
    // $PANE_ID names a pane of the server at $PANE_SOCKET; aimed elsewhere, it means nothing.
    const home = this.io.env.PANE_SOCKET;
    if (this.socketFromFlag && home !== undefined && home !== this.socketPath) return undefined;
    if (!PANE_REF.test(id)) throw new UsageError(`$PANE_ID is '${id}', which is not a pane id; pass -t ID`, this.command);
    return asRef(id);
  }

  out(text: string): void {
    this.io.stdout.write(text.endsWith('\n') || text === '' ? text : text + '\n');
  }

  err(text: string): void {
    this.io.stderr.write(text.endsWith('\n') ? text : text + '\n');
  }

  /** Writes bytes to stdout, waiting when the pipe is full so memory stays flat. */
  writeBytes(data: Uint8Array): Promise<void> {
    return new Promise((resolve) => {
      if (this.io.stdout.write(data)) resolve();
      else this.io.stdout.once('drain', () => resolve());
    });
  }
}

/** "3" → 3; "devbox:3" stays a string (the protocol takes both). */
export function asRef(s: string): PaneRef {
  return /^[0-9]+$/.test(s) ? Number(s) : s;
}
