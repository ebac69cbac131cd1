// What a kind of pane body is to the server: whether it runs a program, the words
// it adds to the pane's vocabulary, and what /pane/<n>/body reads and takes. One
// provider per kind in this folder; registry.ts picks it by `pane.kind`.
import type { BodyKind, Pane, PaneCommand } from '../../../kits/protocol/model';
import type { MethodName, ParamsIn } from '../../../kits/protocol/index';
import type { WidgetNode } from '../../../kits/protocol/widget';

/**
 * What a provider may ask of the view serving its body (the /pane namespace
 * today). Kept narrow so providers import nothing above server/model/.
 */
export interface BodyIO {
  /** The terminal screen's text (and its exit line), as `pty/screen` renders it. */
  screen(pane: Pane, offset: number): Promise<Buffer>;
  /** The text held for a text body (empty before the first write). */
  text(pane: Pane): Buffer;
  /** Appends to a text body, checking the writer's capability and the size bound. */
  appendText(pane: Pane, data: Buffer): void;
  /** Refuses a write the body cannot take, with a hint naming what to do instead. */
  refuse(hint: string): never;
  /** The widget tree of the pane's app (a widgets body's), or undefined when its app file is gone. */
  widget(pane: Pane): WidgetNode | undefined;
  /** A namespace file's text, read as whoever reads the body (their authority, their refusals). */
  readPath(path: string): Promise<string>;
}

/** The protocol request a word stands for. */
export interface WordRequest<M extends MethodName = MethodName> {
  method: M;
  params: ParamsIn<M>;
}

/** One kind of pane body, as the server serves it. */
export interface BodyProvider<K extends BodyKind = BodyKind> {
  readonly kind: K;
  /**
   * The body is a program on a PTY: the pane counts against the server's
   * terminal bound, gets a `Terminal` at creation and is tracked (cwd, title,
   * exit). A body without one is `running` from birth and has no process.
   */
  readonly runsProgram: boolean;
  /**
   * The body is an AI agent's program: the agents' pane contributor shapes its
   * pane (identity, sandbox, shims on PATH; it checks the program itself) and a
   * resurrection resumes its conversation (server/persist/resurrect.ts).
   */
  readonly agent: boolean;
  /**
   * The pane stands in for a joined host's pane (decision 037): no program runs here;
   * its stream, input, resize and words go through the hosts service to that host, it
   * is restored as a stand-in (never relaunched), and nothing here reads its files.
   */
  readonly standIn: boolean;
  /** The kind a pane of this body comes back as when what it ran cannot start again and a shell stands in for it. */
  readonly shellKind: BodyKind;
  /** The pane's vocabulary, given the words every pane has. */
  vocabulary(common: readonly PaneCommand[]): PaneCommand[];
  /**
   * What this body's own words mean: the request `word` with its checked `args` stands
   * for (run as whoever runs the word), a sentence when it cannot run, or undefined for
   * a word that is not this body's (the words every pane has, server/model/commandLine.ts).
   */
  meaning?(pane: Pane, word: string, args: Readonly<Record<string, string | number>>): WordRequest | string | undefined;
  /** /pane/<n>/body read from `offset`. */
  read(io: BodyIO, pane: Pane, offset: number): Promise<Buffer>;
  /** /pane/<n>/body write (resolves once taken, or throws through `io.refuse`). */
  write(io: BodyIO, pane: Pane, data: Buffer): Promise<void>;
}
