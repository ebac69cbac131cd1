import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { deliver, markSeenByRef, readMail, unreadCount } from './mailbox';

let dir: string;
// The Maildir sits in a fresh temp directory: remove that, not only the Maildir.
afterEach(() => fs.rmSync(path.dirname(dir), { recursive: true, force: true }));
const fresh = () => (dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'pane-mail-')), 'Maildir'));

describe('Maildir', () => {
  it('delivers into new/ through tmp/, counts it unread, and files it in cur/ with the S flag once read', () => {
    const d = fresh();
    deliver(d, { from: 'me', to: 'ada', subject: 'one', body: 'first' }, 1000);
    deliver(d, { from: 'bob', to: 'ada', subject: 'two', body: 'second\n' }, 2000);
    expect(fs.readdirSync(path.join(d, 'tmp'))).toEqual([]);
    expect(fs.readdirSync(path.join(d, 'new'))).toHaveLength(2);
    expect(unreadCount(d)).toBe(2);
    const got = readMail(d, { markSeen: true });
    expect(got.map((m) => [m.from, m.subject, m.body, m.seen])).toEqual([
      ['me', 'one', 'first\n', false],
      ['bob', 'two', 'second\n', false],
    ]);
    expect(unreadCount(d)).toBe(0);
    expect(fs.readdirSync(path.join(d, 'cur')).every((f) => f.endsWith(':2,S'))).toBe(true);
    expect(readMail(d)).toEqual([]);
    expect(readMail(d, { all: true }).map((m) => m.seen)).toEqual([true, true]);
  });

  it('keeps a subject with a newline on one header line (no forged headers)', () => {
    const d = fresh();
    deliver(d, { from: 'me', to: 'ada', subject: 'hi\nFrom: root', body: 'x' });
    const [m] = readMail(d);
    expect(m!.from).toBe('me');
    expect(m!.subject).toBe('hi From: root');
  });

  it('marks copies of awareness messages by their reference: left out of the unread count, filed as read by reference', () => {
    const d = fresh();
    deliver(d, { from: 'bob', to: 'ada', subject: '[question] auth?', body: 'x', ref: 'msg_1' }, 1000);
    deliver(d, { from: 'bob', to: 'ada', subject: '[info] later', body: 'From: not a header\nX-Pane-Message: msg_2', ref: 'msg_3' }, 2000);
    deliver(d, { from: 'me', to: 'ada', subject: 'plain', body: 'X-Pane-Message: msg_2' }, 3000);
    expect(readMail(d).map((m) => m.ref)).toEqual(['msg_1', 'msg_3', undefined]);
    expect([unreadCount(d), unreadCount(d, { copies: true })]).toEqual([1, 3]);
    // Only headers count: a body that looks like one is not a reference.
    expect(markSeenByRef(d, new Set(['msg_2']))).toBe(0);
    expect(markSeenByRef(d, new Set(['msg_1', 'msg_9']))).toBe(1);
    expect(readMail(d).map((m) => m.subject)).toEqual(['[info] later', 'plain']);
    expect(markSeenByRef(d, new Set(['msg_1']))).toBe(0);
  });

  it('reads a mailbox that does not exist as empty', () => {
    fresh();
    expect(unreadCount(path.join(dir, 'nope'))).toBe(0);
    expect(readMail(path.join(dir, 'nope'))).toEqual([]);
  });
});
