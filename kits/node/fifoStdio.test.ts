// fifoStdio.ts: the child's stdin and stdout are pipes by fstat (what stdio/adopt takes
// over), bytes pass both ways, end of file comes both ways (our end() reaches the
// child; the child's exit reaches us), no name is left in the temp directory, and the
// child holds no other copy of them.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { fifoStdio } from './fifoStdio';

const stdioDirs = () => fs.readdirSync(os.tmpdir()).filter((n) => n.startsWith('pane-stdio-'));

describe('fifoStdio', () => {
  it('gives a child pipes for stdin and stdout, with end of file both ways and nothing left behind', async () => {
    const dirsBefore = stdioDirs();
    const p = await fifoStdio();
    expect(p).toBeDefined();
    const pipes = p!;
    const child = spawn('cat', [], { stdio: [pipes.childIn, pipes.childOut, 'ignore'] });
    pipes.closeChildEnds();
    // What cat holds, read while it waits on its stdin (spawn returns once it has exec'd): pipes at 0 and 1, two pipes, and no other descriptor on either.
    const fds = `/proc/${child.pid}/fd`;
    expect([0, 1].map((n) => fs.statSync(`${fds}/${n}`).isFIFO())).toEqual([true, true]);
    const inode = (fd: string) => {
      try {
        return String(fs.statSync(`${fds}/${fd}`).ino);
      } catch {
        return ''; // gone while looked at
      }
    };
    const pipeInodes = [inode('0'), inode('1')];
    expect(pipeInodes[0]).not.toBe(pipeInodes[1]);
    expect(fs.readdirSync(fds).filter((fd) => fd !== '0' && fd !== '1' && pipeInodes.includes(inode(fd)))).toEqual([]);
    let out = '';
    pipes.fromChild.on('data', (b: Buffer) => (out += String(b)));
    const ended = new Promise<void>((r) => pipes.fromChild.once('end', () => r()));
    const exited = new Promise<number | null>((r) => child.once('exit', (c) => r(c)));
    pipes.toChild.write('through a fifo\n');
    pipes.toChild.end();
    expect(await exited).toBe(0); // cat saw the end of its stdin
    await ended; // and its exit closed the only writer of ours
    expect(out).toBe('through a fifo\n');
    expect(stdioDirs()).toEqual(dirsBefore);
  });

  it('ends the reader when the child exits without reading, and a write after that is an error, not a hang', async () => {
    const pipes = (await fifoStdio())!;
    const child = spawn('true', [], { stdio: [pipes.childIn, pipes.childOut, 'ignore'] });
    pipes.closeChildEnds();
    await new Promise<void>((r) => pipes.fromChild.once('end', () => r()).resume());
    await new Promise((r) => child.once('exit', r));
    const failed = new Promise<string>((r) => pipes.toChild.once('error', (e: NodeJS.ErrnoException) => r(e.code ?? e.message)));
    pipes.toChild.write('nobody reads this\n');
    expect(await failed).toBe('EPIPE');
  });

  it('gives nothing (the caller keeps socket pairs) where mkfifo cannot run, and leaves no directory', async () => {
    const dirsBefore = stdioDirs();
    const path = process.env.PATH;
    process.env.PATH = '/nonexistent';
    try {
      expect(await fifoStdio()).toBeUndefined();
    } finally {
      process.env.PATH = path;
    }
    expect(stdioDirs()).toEqual(dirsBefore);
  });
});
