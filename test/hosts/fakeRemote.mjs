#!/usr/bin/env node
// A remote that is not a well-behaved pane, for the host attack tests (issue 26).
// Each mode prints the stdio preamble (so the dial succeeds) and then:
//   junk   a length prefix past every bound, then text: bad framing
//   flood  event frames nobody asked for, as fast as it can (bounded: 200,000)
//   replies  the same with replies to requests never made
//   liar   answers hello properly, then pane/list with something that is no pane list
//   offsets  a pane daemon with no panes whose pty/attach of pane 1 answers, then sends
//            output at offset 0 and again at offset 2: an offset going backward
//   chatty   a pane daemon with one pane that, once subscribed to, retitles it in a loop:
//            200,000 well-formed pane/changed events as fast as it can
//   badevent the same, whose one pane/changed event after the subscription is no pane
//   escaper  a pane daemon whose every string is hostile: a host name, version, session
//            name, pane name, cwd and title full of terminal escapes (OSC 52 clipboard,
//            OSC 0 title, CSI, 8-bit CSI, a newline and a forged log line), a vocabulary
//            of 5,000 long words, and an unqualified id ("1") for every pane it makes;
//            once subscribed, 300 events of 512 KiB each
//   churner  a pane daemon with one pane whose vocabulary (200 words) changes 4 times a
//            second, as pane/changed events, for 20 s
//   hoard    a pane daemon whose one session `work` holds 1,000 panes (a chain of
//            splits) in its pane list and its snapshot: more than a view tiles
// Framing as kits/node/framing.ts: u32 BE length (kind byte + payload), u8 kind, payload.
const mode = process.argv[2];
const frame = (obj) => {
  const body = Buffer.from(JSON.stringify(obj));
  const head = Buffer.alloc(5);
  head.writeUInt32BE(body.length + 1, 0);
  head.writeUInt8(0, 4);
  return Buffer.concat([head, body]);
};
process.stdout.write('Welcome to a noisy login shell\n\x1bPANE-STDIO v1 0.0.0-fake\n');
/** Calls `answer(req, ok)` for each request frame read from stdin (a binary frame as {}); `ok(result)` replies to it. Exits at the input's end. */
const onRequests = (answer) => {
  let buf = Buffer.alloc(0);
  process.stdin.on('data', (c) => {
    buf = Buffer.concat([buf, c]);
    while (buf.length >= 4 && buf.length >= 4 + buf.readUInt32BE(0)) {
      const len = buf.readUInt32BE(0);
      const req = buf[4] === 0 ? JSON.parse(buf.subarray(5, 4 + len).toString()) : {};
      buf = buf.subarray(4 + len);
      answer(req, (result) => process.stdout.write(frame({ t: 'res', id: req.id, ok: true, result })));
    }
  });
  process.stdin.on('end', () => process.exit(0));
};
if (mode === 'junk') {
  process.stdout.write(Buffer.from([0xff, 0xff, 0xff, 0xff]));
  process.stdout.write('this is not pane\n');
  setTimeout(() => process.exit(0), 30_000);
} else if (mode === 'flood' || mode === 'replies') {
  // Events nobody subscribed to, or replies to requests never made (the Connection would drop those unseen).
  const evt = mode === 'flood' ? frame({ t: 'evt', event: 'pane/output', rev: 1, data: { pane: 1, end: 1 } }) : frame({ t: 'res', id: 987654, ok: true, result: {} });
  let sent = 0;
  const pump = () => {
    while (sent < 200_000) {
      sent++;
      if (!process.stdout.write(evt)) return void process.stdout.once('drain', pump);
    }
  };
  process.stdout.on('error', () => process.exit(0));
  pump();
  setTimeout(() => process.exit(0), 30_000);
} else if (mode === 'offsets') {
  const binary = (offset, text) => {
    const data = Buffer.from(text);
    const out = Buffer.alloc(5 + 13 + data.length);
    out.writeUInt32BE(1 + 13 + data.length, 0);
    out.writeUInt8(1, 4);
    out.writeUInt8(1, 5); // OUTPUT
    out.writeUInt32BE(1, 6); // pane 1
    out.writeDoubleBE(offset, 10);
    data.copy(out, 18);
    return out;
  };
  onRequests((req, ok) => {
    if (req.method === 'hello') ok({ protocol: req.params.protocol, server: { host: 'offsets', version: '0.0.0', pid: 1 }, client: 'x', capabilities: ['read', 'attach'], user: 'u' });
    else if (req.method === 'pane/list') ok({ panes: [] });
    else if (req.method === 'pty/ack') ok({ pane: 1, unacked: 0 });
    else if (req.method === 'pty/attach') {
      ok({ pane: 1, from: 0, gap: false, streamStart: 0, streamEnd: 0 });
      process.stdout.write(binary(0, 'LIE-AAAA\r\n'));
      setTimeout(() => process.stdout.write(binary(2, 'LIE-BACKWARD\r\n')), 300);
    }
  });
  setTimeout(() => process.exit(0), 30_000);
} else if (mode === 'chatty' || mode === 'badevent') {
  const pane = (title) => ({ n: 1, uuid: '2d8e3f74-9c65-4e3a-9f4c-7b8f9fabd2c3', host: mode, session: '0b6f1c52-7a43-4c1e-9d2a-5f6e7d8c9b0a', signature: 'com.pane.terminal', kind: 'terminal', tag: { name: title, commands: ['close'], user: '' }, vocabulary: [], owner: 'u', cwd: '/', launch: null, pid: 1, pgid: 1, state: 'running', exit: null, cols: 80, rows: 24, attrs: {}, createdAt: 1 });
  process.stdout.on('error', () => process.exit(0));
  onRequests((req, ok) => {
    if (req.method === 'hello') ok({ protocol: req.params.protocol, server: { host: mode, version: '0.0.0', pid: 1 }, client: 'x', capabilities: ['read', 'write', 'attach'], user: 'u' });
    else if (req.method === 'pane/list') ok({ panes: [pane('first')] });
    else if (req.method === 'session/list') ok({ sessions: [] });
    else if (req.method === 'events/subscribe') {
      ok({ rev: 1, host: mode, sessions: [], panes: [pane('first')] });
      if (mode === 'badevent') {
        process.stdout.write(frame({ t: 'evt', event: 'pane/changed', rev: 2, data: { pane: { n: 'one', host: 'evil' } } }));
        return;
      }
      let sent = 0;
      const pump = () => {
        while (sent < 200_000) {
          sent++;
          if (!process.stdout.write(frame({ t: 'evt', event: 'pane/changed', rev: 2 + sent, data: { pane: pane(`title ${sent}`) } }))) return void process.stdout.once('drain', pump);
        }
      };
      pump();
    }
  });
  setTimeout(() => process.exit(0), 30_000);
} else if (mode === 'escaper') {
  const ESC = '\x1b';
  const evil = (s) => `${s}${ESC}]52;c;cGF3bmVk\x07${ESC}]0;owned\x07${ESC}[2J\u009b31m\nFORGED pane: host box: trusted\u202e`;
  const vocabulary = Array.from({ length: 5000 }, (_, i) => ({ name: `w${i}`, doc: `${'x'.repeat(250)}${ESC}[31m`, args: [] }));
  const pane = (title) => ({ n: 1, uuid: '2d8e3f74-9c65-4e3a-9f4c-7b8f9fabd2c3', host: 'escaper', session: '0b6f1c52-7a43-4c1e-9d2a-5f6e7d8c9b0a', signature: 'com.pane.terminal', kind: 'terminal', tag: { name: evil('name'), commands: ['close'], user: evil('user') }, vocabulary, owner: 'u', cwd: evil('/tmp/cwd'), launch: null, pid: 1, pgid: 1, state: 'running', exit: null, cols: 80, rows: 24, attrs: { title: evil(title) }, createdAt: 1 });
  process.stdout.on('error', () => process.exit(0));
  onRequests((req, ok) => {
    if (req.method === 'hello') ok({ protocol: req.params.protocol, server: { host: evil('box'), version: evil('9.9'), pid: 1 }, client: 'x', capabilities: ['read', 'write', 'attach'], user: 'u' });
    else if (req.method === 'pane/list') ok({ panes: [pane('title')] });
    else if (req.method === 'session/list') ok({ sessions: [{ id: '0b6f1c52-7a43-4c1e-9d2a-5f6e7d8c9b0a', name: evil('work'), panes: 1, focused: 1, createdAt: 1 }] });
    else if (req.method === 'pane/split' || req.method === 'pane/launch') ok({ session: '0b6f1c52-7a43-4c1e-9d2a-5f6e7d8c9b0a', pane: 1, id: '1' });
    else if (req.method === 'pty/attach') ok({ pane: 1, from: 0, gap: false, streamStart: 0, streamEnd: 0 });
    else if (req.method === 'pty/ack' || req.method === 'pty/detach') ok({ pane: 1, unacked: 0 });
    else if (req.method === 'pty/resize') ok({ pane: 1, cols: 80, rows: 24 });
    else if (req.method === 'events/subscribe') {
      ok({ rev: 1, host: 'escaper', sessions: [], panes: [pane('title')] });
      const fat = frame({ t: 'evt', event: 'pane/attrs-changed', rev: 2, data: { pane: 1, attrs: { title: 'y'.repeat(512 << 10) } } });
      let sent = 0;
      const pump = () => {
        while (sent < 300) {
          sent++;
          if (!process.stdout.write(fat)) return void process.stdout.once('drain', pump);
        }
      };
      pump();
    }
  });
  setTimeout(() => process.exit(0), 60_000);
} else if (mode === 'churner') {
  let turn = 0;
  const pane = () => ({ n: 1, uuid: '2d8e3f74-9c65-4e3a-9f4c-7b8f9fabd2c3', host: 'churner', session: '0b6f1c52-7a43-4c1e-9d2a-5f6e7d8c9b0a', signature: 'com.pane.app', kind: 'terminal', tag: { name: 'churn', commands: ['close'], user: '' }, vocabulary: Array.from({ length: 200 }, (_, i) => ({ name: `w${i}`, doc: `word ${i} of turn ${turn} ${'d'.repeat(150)}`, args: [], inTag: i < 3 })), owner: 'u', cwd: '/', launch: null, pid: 1, pgid: 1, state: 'running', exit: null, cols: 80, rows: 24, attrs: {}, createdAt: 1 });
  process.stdout.on('error', () => process.exit(0));
  onRequests((req, ok) => {
    if (req.method === 'hello') ok({ protocol: req.params.protocol, server: { host: 'churner', version: '0.0.0', pid: 1 }, client: 'x', capabilities: ['read', 'write', 'attach'], user: 'u' });
    else if (req.method === 'pane/list') ok({ panes: [pane()] });
    else if (req.method === 'session/list') ok({ sessions: [] });
    else if (req.method === 'pty/attach') ok({ pane: 1, from: 0, gap: false, streamStart: 0, streamEnd: 0 });
    else if (req.method === 'pty/ack' || req.method === 'pty/detach') ok({ pane: 1, unacked: 0 });
    else if (req.method === 'pty/resize') ok({ pane: 1, cols: 80, rows: 24 });
    else if (req.method === 'events/subscribe') {
      ok({ rev: 1, host: 'churner', sessions: [], panes: [pane()] });
      const timer = setInterval(() => {
        turn++;
        process.stdout.write(frame({ t: 'evt', event: 'pane/changed', rev: 2 + turn, data: { pane: pane() } }));
        if (turn >= 80) clearInterval(timer);
      }, 250);
    }
  });
  setTimeout(() => process.exit(0), 60_000);
} else if (mode === 'hoard') {
  const sid = '0b6f1c52-7a43-4c1e-9d2a-5f6e7d8c9b0a';
  const N = 1000;
  const pane = (n) => ({ n, uuid: `2d8e3f74-9c65-4e3a-9f4c-${String(n).padStart(12, '0')}`, host: 'hoard', session: sid, signature: 'com.pane.terminal', kind: 'terminal', tag: { name: `p${n}`, commands: ['close'], user: '' }, vocabulary: [], owner: 'u', cwd: '/', launch: null, pid: 1, pgid: 1, state: 'running', exit: null, cols: 80, rows: 24, attrs: {}, createdAt: 1 });
  const panes = Array.from({ length: N }, (_, i) => pane(i + 1));
  let layout = { type: 'leaf', pane: N };
  for (let n = N - 1; n >= 1; n--) layout = { type: 'split', direction: 'horizontal', ratio: 50, a: { type: 'leaf', pane: n }, b: layout };
  const session = { id: sid, name: 'work', host: 'hoard', layout, floating: [], focused: 1, zoomed: null, viewport: { cols: 160, rows: 48 }, placements: [], createdAt: 1 };
  onRequests((req, ok) => {
    if (req.method === 'hello') ok({ protocol: req.params.protocol, server: { host: 'hoard', version: '0.0.0', pid: 1 }, client: 'x', capabilities: ['read', 'write', 'attach'], user: 'u' });
    else if (req.method === 'pane/list') ok({ panes });
    else if (req.method === 'session/list') ok({ sessions: [{ id: sid, name: 'work', panes: N, focused: 1, createdAt: 1 }] });
    else if (req.method === 'session/snapshot') ok({ version: 1, session, panes });
    else if (req.method === 'events/subscribe') ok({ rev: 1, host: 'hoard', sessions: [session], panes });
  });
  setTimeout(() => process.exit(0), 60_000);
} else if (mode === 'liar') {
  onRequests((req, ok) => {
    if (req.method === 'hello') ok({ protocol: req.params.protocol, server: { host: 'liar', version: '0.0.0', pid: 1 }, client: 'x', capabilities: ['read'], user: 'u' });
    else if (req.method === 'pane/list') ok({ panes: [{ n: 'one', host: 'evil' }] });
  });
  setTimeout(() => process.exit(0), 30_000);
}
