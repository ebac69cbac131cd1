// sandbox-runtime starts two programs at every wrap whose answers the sandbox helper
// has without a process: `which SHELL` (its whichSync: the runtime takes no path for
// the shell it runs the command with) and its ripgrep scan for dangerous names, which
// pane points at `false` (runtimePrograms: the helper wraps from an empty directory, so
// that scan finds nothing). Each is a process started from Node, ~6 ms here (fork,
// exec, and spawnSync's own event loop), and both lie on every agent launch's path:
// the launcher waits for the wrap. This answers exactly those two calls in the
// process, as the programs would, and passes every other call to Node's own
// functions. The runtime imports child_process as an ES module, so the stand-ins are
// made visible to it with module.syncBuiltinESMExports(), Node's documented way to
// update builtin modules' ES bindings. Decision 049.
import childProcess, { type SpawnSyncOptions, type SpawnSyncReturns } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { syncBuiltinESMExports } from 'node:module';
import { Readable } from 'node:stream';
import { which } from './which';

type SpawnSync = typeof childProcess.spawnSync;
type Spawn = typeof childProcess.spawn;

/** Whether `which NAME`, as the runtime asks it (one name, its output as text, this process's PATH), can be answered here. */
function isWhich(command: unknown, args: unknown, options: unknown): args is [string] {
  if (command !== 'which' || !Array.isArray(args) || args.length !== 1 || typeof args[0] !== 'string' || args[0].startsWith('-')) return false;
  const o = options as SpawnSyncOptions | undefined;
  return o?.encoding === 'utf8' && o.env === undefined && o.cwd === undefined && o.input === undefined;
}

/** `which NAME`'s answer: its path and a newline with status 0, or nothing with status 1, as /usr/bin/which prints it. */
function whichAnswer(name: string): SpawnSyncReturns<string> {
  const found = which(name, process.env.PATH);
  const stdout = found === null ? '' : `${found}\n`;
  return { pid: 0, output: [null, stdout, ''], stdout, stderr: '', status: found === null ? 1 : 0, signal: null };
}

/** A finished child that printed nothing and exited 1 (`false`, or ripgrep finding nothing): what ripGrep reads of one. */
function nothingFound(): ReturnType<Spawn> {
  const child = new EventEmitter() as ReturnType<Spawn>;
  Object.assign(child, { pid: undefined, stdin: null, stdout: Readable.from([]), stderr: Readable.from([]), exitCode: null, signalCode: null, kill: () => false });
  setImmediate(() => {
    Object.assign(child, { exitCode: 1 });
    child.emit('exit', 1, null);
    child.emit('close', 1, null);
  });
  return child;
}

/**
 * Answers the runtime's `which NAME` and its spawn of `nothing` (the `false` pane gives
 * it as ripgrep) in this process from now on. Returns the function that puts Node's
 * own back (tests).
 */
export function answerRuntimeLookups(nothing: string | undefined): () => void {
  const spawnSync = childProcess.spawnSync;
  const spawn = childProcess.spawn;
  const ownSpawnSync = function (this: unknown, command: string, args?: unknown, options?: unknown) {
    if (isWhich(command, args, options)) return whichAnswer(args[0]);
    return (spawnSync as (...a: unknown[]) => unknown).apply(this, [...arguments]);
  } as SpawnSync;
  const ownSpawn = function (this: unknown, command: string) {
    if (nothing !== undefined && command === nothing) return nothingFound();
    return (spawn as (...a: unknown[]) => unknown).apply(this, [...arguments]);
  } as Spawn;
  childProcess.spawnSync = ownSpawnSync;
  childProcess.spawn = ownSpawn;
  syncBuiltinESMExports();
  return () => {
    if (childProcess.spawnSync === ownSpawnSync) childProcess.spawnSync = spawnSync;
    if (childProcess.spawn === ownSpawn) childProcess.spawn = spawn;
    syncBuiltinESMExports();
  };
}
