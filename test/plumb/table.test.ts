// The shipped plumbing rules against the lines programs really print: compilers
// (gcc, clang, tsc in both styles, go, rustc), linters (eslint unix, flake8, mypy),
// runners and stacks (Node/V8, vitest, jest, pytest, go test, Python, Ruby, Perl),
// grep and ripgrep, diffs, URLs, file:// links and commits — each formed with
// many kinds of path, clicked at its start and in its middle — with the file and
// line each must land on, and lines on which nothing may fire. Real files in a
// real git repository; the checks are the server's own (fsChecks).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstMatch, type Message } from '../../server/plumb/engine';
import { parseRules } from '../../server/plumb/rules';
import { fsChecks } from '../../server/plumb/service';
import { SHIPPED_FILE, SHIPPED_RULES } from '../../server/plumb/shipped';

const rules = parseRules(SHIPPED_RULES, SHIPPED_FILE, 'shipped').rules;
let dir: string;
let commit: string;

/** Paths of the shapes compilers print: nested, dotted, scoped, hyphens, pluses, a hidden dir, a dotted leading ./ . */
const PATHS = ['src/app.ts', 'src/server/handler.go', 'lib/parser.rs', 'pkg/mod.py', 'packages/@scope/ui/src/button.tsx', 'include/my-lib/util.h', 'src/c++/vec.cc', '.github/scripts/check.js', 'test/api_v2.test.ts', 'a.c'];

interface Case {
  what: string;
  text: string;
  /** The text clicked on (its first occurrence); the click goes to its start and its middle. */
  on: string;
  file: string;
  line?: number;
  col?: number;
}

/** A format a program prints, filled with one path (relative to the repo, as the program was run there). */
const FORMATS: ((p: string) => Omit<Case, 'file'>)[] = [
  (p) => ({ what: 'gcc error', text: `${p}:12:5: error: expected ';' before '}' token`, on: p, line: 12, col: 5 }),
  (p) => ({ what: 'gcc note', text: `${p}:8:3: note: declared here`, on: p, line: 8, col: 3 }),
  (p) => ({ what: 'clang warning', text: `${p}:31:17: warning: unused variable 'x' [-Wunused-variable]`, on: `${p}:31`, line: 31, col: 17 }),
  (p) => ({ what: 'tsc (plain)', text: `${p}(12,7): error TS2322: Type 'string' is not assignable to type 'number'.`, on: p, line: 12, col: 7 }),
  (p) => ({ what: 'tsc --pretty', text: `${p}:44:3 - error TS2554: Expected 2 arguments, but got 1.`, on: p, line: 44, col: 3 }),
  (p) => ({ what: 'go build', text: `./${p}:88:14: cannot use x (variable of type int) as string value in argument`, on: p, line: 88, col: 14 }),
  (p) => ({ what: 'go panic frame', text: `\t${'$ROOT'}/${p}:27 +0x1d`, on: p, line: 27 }),
  (p) => ({ what: 'rustc arrow', text: `  --> ${p}:14:9`, on: p, line: 14, col: 9 }),
  (p) => ({ what: 'rust panic', text: `thread 'main' panicked at ${p}:5:5:`, on: p, line: 5, col: 5 }),
  (p) => ({ what: 'eslint unix', text: `${'$ROOT'}/${p}:3:10: 'x' is defined but never used. [Error/no-unused-vars]`, on: p, line: 3, col: 10 }),
  (p) => ({ what: 'flake8', text: `${p}:12:80: E501 line too long (88 > 79 characters)`, on: p, line: 12, col: 80 }),
  (p) => ({ what: 'mypy', text: `${p}:12: error: Incompatible types in assignment  [assignment]`, on: p, line: 12 }),
  (p) => ({ what: 'node stack', text: `    at Object.<anonymous> (${'$ROOT'}/${p}:10:11)`, on: p, line: 10, col: 11 }),
  (p) => ({ what: 'node async stack', text: `    at async run (${'$ROOT'}/${p}:55:3)`, on: p, line: 55, col: 3 }),
  (p) => ({ what: 'node ESM stack', text: `    at file://${'$ROOT'}/${p}:4:9`, on: p, line: 4, col: 9 }),
  (p) => ({ what: 'vitest frame', text: ` ❯ ${p}:12:18`, on: p, line: 12, col: 18 }),
  (p) => ({ what: 'jest frame', text: `      at Object.<anonymous> (${p}:12:18)`, on: p, line: 12, col: 18 }),
  (p) => ({ what: 'python traceback', text: `  File "${'$ROOT'}/${p}", line 88, in handler`, on: 'File', line: 88 }),
  (p) => ({ what: 'python traceback (relative)', text: `  File "${p}", line 3, in <module>`, on: p, line: 3 }),
  (p) => ({ what: 'pytest failure', text: `${p}:42: AssertionError`, on: p, line: 42 }),
  (p) => ({ what: 'pytest frame', text: `${p}:42: in test_get`, on: p, line: 42 }),
  (p) => ({ what: 'go test', text: `    ${p}:42: expected 3, got 4`, on: p, line: 42 }),
  (p) => ({ what: 'ruby frame', text: `${p}:42:in 'save': undefined method (NoMethodError)`, on: p, line: 42 }),
  (p) => ({ what: 'perl die', text: `Died at ${p} line 12.`, on: p, line: 12 }),
  (p) => ({ what: 'grep -n', text: `${p}:150:const row150 = 150;`, on: p, line: 150 }),
  (p) => ({ what: 'ripgrep --vimgrep', text: `${p}:150:7:const row150 = 150;`, on: p, line: 150, col: 7 }),
  (p) => ({ what: 'diff ---', text: `--- a/${p}`, on: `a/${p}` }),
  (p) => ({ what: 'diff +++', text: `+++ b/${p}`, on: `b/${p}` }),
  (p) => ({ what: 'diff --git', text: `diff --git a/${p} b/${p}`, on: `b/${p}` }),
  (p) => ({ what: 'a bare path', text: `modified:   ${p}`, on: p }),
  (p) => ({ what: 'file:// link', text: `file://${'$ROOT'}/${p}`, on: 'file://' }),
];

function cases(): Case[] {
  const out: Case[] = [];
  for (const p of PATHS) {
    for (const f of FORMATS) {
      const c = f(p);
      out.push({ ...c, text: c.text.replaceAll('$ROOT', dir), on: c.on.replaceAll('$ROOT', dir), file: path.join(dir, p) });
    }
  }
  return out;
}

const msg = (text: string, click?: number): Message => ({ src: 'pane 1', wdir: dir, type: 'text', data: text, click, attrs: {} });

beforeAll(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'pane-plumb-table-')));
  for (const p of PATHS) {
    fs.mkdirSync(path.dirname(path.join(dir, p)), { recursive: true });
    fs.writeFileSync(path.join(dir, p), 'x\n'.repeat(200));
  }
  const git = (...a: string[]) => execFileSync('git', ['-C', dir, ...a], { encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 'a', GIT_AUTHOR_EMAIL: 'a@b', GIT_COMMITTER_NAME: 'a', GIT_COMMITTER_EMAIL: 'a@b' } }).trim();
  git('init', '-q');
  git('add', '.');
  git('commit', '-qm', 'first');
  commit = git('rev-parse', 'HEAD');
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('the shipped rules against real output', () => {
  it(`land on the file and line of ${PATHS.length * FORMATS.length} lines of ${FORMATS.length} formats, clicked at the path's start and middle`, async () => {
    const wrong: string[] = [];
    const all = cases();
    expect(all.length).toBeGreaterThanOrEqual(300);
    for (const c of all) {
      const at = c.text.indexOf(c.on);
      expect(at, `${c.what}: ${c.on} in ${c.text}`).toBeGreaterThanOrEqual(0);
      for (const click of [at, at + Math.floor(c.on.length / 2)]) {
        const f = await firstMatch(rules, msg(c.text, click), fsChecks(dir));
        const got = f ? `${f.data} line=${f.attrs.line ?? '-'} col=${f.attrs.col ?? '-'} via ${f.rule.line}` : 'nothing';
        const want = `${c.file} line=${c.line ?? '-'} col=${c.col ?? '-'}`;
        if (!got.startsWith(want + ' via')) wrong.push(`${c.what} | ${c.text} | click ${click}: got ${got}, want ${want}`);
        else if (!f!.rule.actions.some((a) => a.verb === 'client' && a.words[0] === 'editor')) wrong.push(`${c.what}: fired ${f!.rule.line}, which is not the editor's`);
      }
    }
    expect(wrong, wrong.slice(0, 20).join('\n')).toEqual([]);
  });

  it('open web addresses, leaving out the punctuation that ends a sentence', async () => {
    const urls: [string, string][] = [
      ['see https://github.com/anthropics/claude-code/issues/12.', 'https://github.com/anthropics/claude-code/issues/12'],
      ['docs: https://nodejs.org/api/child_process.html#spawn, then', 'https://nodejs.org/api/child_process.html#spawn'],
      ['(http://127.0.0.1:8080/status)', 'http://127.0.0.1:8080/status'],
      ['<https://example.com/a?b=1&c=2>', 'https://example.com/a?b=1&c=2'],
      ['"https://registry.npmjs.org/re2js"', 'https://registry.npmjs.org/re2js'],
      ['npm notice https://docs.npmjs.com/cli/v10/commands/npm-install!', 'https://docs.npmjs.com/cli/v10/commands/npm-install'],
    ];
    for (const [text, url] of urls) {
      const f = await firstMatch(rules, msg(text, text.indexOf('http') + 3), fsChecks(dir));
      expect(f?.data, text).toBe(url);
      expect(f?.rule.actions.map((a) => `${a.verb} ${a.words.join(' ')}`)).toEqual(['to web', 'client browser']);
    }
  });

  it('show a commit of the repository the pane is in, in git log and in git log --oneline', async () => {
    for (const text of [`commit ${commit}`, `${commit.slice(0, 7)} first`, `Merge: ${commit.slice(0, 9)} 0000000`]) {
      const f = await firstMatch(rules, msg(text, text.indexOf(commit.slice(0, 7)) + 2), fsChecks(dir));
      expect(f?.rule.actions.at(-1)?.words, text).toEqual(['git', 'show', '$0']);
      expect(f!.vars['0']!.length, text).toBeGreaterThanOrEqual(7);
      expect(commit.startsWith(f!.vars['0']!), text).toBe(true);
    }
  });

  it('fire on nothing where nothing is meant: times, versions, files that do not exist, hashes that are no commit, clicks beside a path', async () => {
    const lines: [string, number][] = [
      ['started at 12:30:45', 13],
      ['node v20.11.1 (npm 10.2.4)', 7],
      ['src/missing.ts:12:5: error: gone', 3],
      ['File "nowhere.py", line 3, in <module>', 8],
      ['deadbeef0 is not a commit here', 3],
      ['ratio 16:9 and 4:3', 7],
      ['src/app.ts:12:5: error', 18],
      ['http:// alone', 2],
      ['--- /dev/null', 6],
    ];
    for (const [text, click] of lines) {
      const f = await firstMatch(rules, msg(text, click), fsChecks(dir));
      expect(f ? `${f.rule.line} ${f.data}` : undefined, text).toBeUndefined();
    }
  });
});
