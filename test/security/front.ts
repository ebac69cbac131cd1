// Helpers for the security tests: a real `pane serve` (the built CLI), raw TCP
// requests whose bytes we choose, and a WebSocket hello with or without the cookie.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { ensureBuilt, root } from '../e2e/shell';

export interface Served {
  proc: ChildProcess;
  dir: string;
  socket: string;
  /** The one-time URL `pane serve` printed. */
  launchUrl: string;
  port: number;
  output(): string;
  stop(): Promise<void>;
}

/** `pane serve --http 0` on a temp socket, as a user runs it. */
export async function paneServe(extra: string[] = []): Promise<Served> {
  ensureBuilt();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pane-sec-'));
  const socket = path.join(dir, 's.sock');
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, LANG: 'C.UTF-8', SHELL: '/bin/sh', XDG_RUNTIME_DIR: path.join(dir, 'run'), XDG_CONFIG_HOME: path.join(dir, 'config'), XDG_DATA_HOME: path.join(dir, 'data') };
  const proc = spawn(process.execPath, [path.join(root, 'dist/pane.mjs'), 'serve', '--socket', socket, '--http', '0', ...extra], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  proc.stdout!.on('data', (b: Buffer) => (out += b.toString()));
  proc.stderr!.on('data', (b: Buffer) => (out += b.toString()));
  const launchUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`pane serve did not start: ${out}`)), 20_000);
    const check = () => {
      const m = /(http:\/\/127\.0\.0\.1:\d+\/\S*)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    };
    proc.stderr!.on('data', check);
    proc.stdout!.on('data', check);
    proc.once('exit', (code) => reject(new Error(`pane serve exited (${code}): ${out}`)));
  });
  const stop = async () => {
    if (proc.exitCode === null && proc.signalCode === null) {
      proc.kill('SIGTERM');
      await new Promise((r) => {
        proc.once('exit', r);
        setTimeout(r, 5000);
      });
    }
    fs.rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  };
  return { proc, dir, socket, launchUrl, port: Number(new URL(launchUrl).port), output: () => out, stop };
}

export interface RawReply {
  /** The status line, e.g. `HTTP/1.1 400 Bad Request`, or '' when the server sent nothing. */
  status: string;
  code: number;
  text: string;
  /** The server closed the connection (we did not have to). */
  closed: boolean;
}

/** Sends `bytes` on a fresh TCP connection and reads until the server closes (or 5 s pass). */
export function rawRequest(port: number, bytes: string | Buffer): Promise<RawReply> {
  return new Promise((resolve) => {
    const s = net.createConnection({ host: '127.0.0.1', port });
    let text = '';
    let done = false;
    const finish = (closed: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      s.destroy();
      const status = text.split('\r\n')[0] ?? '';
      resolve({ status, code: Number(/^HTTP\/1\.1 (\d{3})/.exec(status)?.[1] ?? 0), text, closed });
    };
    const timer = setTimeout(() => finish(false), 5000);
    s.on('data', (b) => (text += b.toString('latin1')));
    s.on('close', () => finish(true));
    s.on('error', () => finish(true));
    s.on('connect', () => s.write(bytes));
  });
}

/** A WebSocket to the front that says hello; resolves with the reply (ok or the error). */
export function wsHello(port: number, o: { cookie?: string; origin?: string; token?: string; grant?: string } = {}): Promise<{ ok: boolean; error?: { code: string; message: string }; closed?: string }> {
  return new Promise((resolve) => {
    const headers: Record<string, string> = {};
    if (o.cookie) headers.cookie = o.cookie;
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`, { headers, ...(o.origin ? { origin: o.origin } : {}) });
    const timer = setTimeout(() => {
      ws.terminate();
      resolve({ ok: false, closed: 'timeout' });
    }, 10_000);
    ws.on('open', () => ws.send(JSON.stringify({ t: 'req', id: 1, method: 'hello', params: { protocol: 1, client: { name: 'security test', kind: 'test' }, capabilities: ['read'], ...(o.token ? { token: o.token } : {}), ...(o.grant ? { grant: o.grant } : {}) } })));
    ws.on('message', (d) => {
      const m = JSON.parse(String(d)) as { t: string; id: number; ok: boolean; error?: { code: string; message: string } };
      if (m.t !== 'res' || m.id !== 1) return;
      clearTimeout(timer);
      ws.close();
      resolve(m.ok ? { ok: true } : { ok: false, ...(m.error ? { error: m.error } : {}) });
    });
    ws.on('unexpected-response', (_req, res) => {
      clearTimeout(timer);
      resolve({ ok: false, closed: `HTTP ${res.statusCode}` });
    });
    ws.on('close', (code, reason) => {
      clearTimeout(timer);
      resolve({ ok: false, closed: `${code} ${String(reason)}` });
    });
    ws.on('error', () => undefined);
  });
}

/** GETs the launch URL and returns the cookie it sets (name=value), or null. */
export async function exchangeLaunch(url: string): Promise<{ status: number; cookie: string | null; setCookie: string | null; location: string | null }> {
  const u = new URL(url);
  const r = await rawRequest(Number(u.port), `GET ${u.pathname}${u.search} HTTP/1.1\r\nHost: ${u.host}\r\nConnection: close\r\n\r\n`);
  const setCookie = /^set-cookie: (.*)$/im.exec(r.text)?.[1]?.trim() ?? null;
  return { status: r.code, setCookie, cookie: setCookie ? setCookie.split(';')[0]! : null, location: /^location: (.*)$/im.exec(r.text)?.[1]?.trim() ?? null };
}

export interface Listener {
  kind: 'tcp' | 'unix';
  /** 127.0.0.1:PORT, or the socket's path. */
  where: string;
  port?: number;
}

/** The socket inodes the process holds open (its fds pointing at socket:[N]). */
function socketInodes(pid: number): Set<string> {
  const out = new Set<string>();
  for (const fd of fs.readdirSync(`/proc/${pid}/fd`)) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(fs.readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m) out.add(m[1]!);
    } catch {
      /* closed meanwhile */
    }
  }
  return out;
}

/** Listening sockets of process `pid`: TCP in LISTEN state (0A), unix with SO_ACCEPTCON (flag 0x10000). */
export function listenersOf(pid: number): Listener[] {
  const mine = socketInodes(pid);
  const out: Listener[] = [];
  for (const table of ['tcp', 'tcp6']) {
    let text = '';
    try {
      text = fs.readFileSync(`/proc/${pid}/net/${table}`, 'latin1');
    } catch {
      continue;
    }
    for (const line of text.trim().split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f[3] !== '0A' || !mine.has(f[9]!)) continue;
      const [hexIp, hexPort] = f[1]!.split(':');
      const ip = table === 'tcp' ? hexIp!.match(/../g)!.reverse().map((b) => parseInt(b, 16)).join('.') : `[${hexIp}]`;
      const port = parseInt(hexPort!, 16);
      out.push({ kind: 'tcp', where: `${ip}:${port}`, port });
    }
  }
  for (const line of fs.readFileSync('/proc/net/unix', 'latin1').trim().split('\n').slice(1)) {
    const f = line.trim().split(/\s+/);
    if ((parseInt(f[3]!, 16) & 0x10000) === 0 || !mine.has(f[6]!)) continue;
    out.push({ kind: 'unix', where: f[7] ?? '(unnamed)' });
  }
  return out;
}
