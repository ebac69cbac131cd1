// The rules pane ships (read after the person's own and a project's: the first
// rule that matches fires). Patterns are RE2; `pane plumb rules` lists them with
// their lines, docs/plumbing.md explains each. The table test
// (test/plumb/table.test.ts) holds them to hundreds of real compiler, runner and
// traceback lines.
export const SHIPPED_FILE = '(shipped)';

export const SHIPPED_RULES = String.raw`# pane's own plumbing rules. Yours come first: $XDG_CONFIG_HOME/pane/plumbing
# (or ~/.config/pane/plumbing), then a project's .pane/plumbing, then these.

# Characters of a path as compilers print them.
pathchar='[A-Za-z0-9_.@+~/-]'

# A web address: the window you clicked in opens it.
type is text
data matches 'https?://[^\s<>"''\x60]*[^\s<>"''\x60.,;:!?)\]}]'
plumb to web
plumb client browser

# A file:// address (an OSC 8 link to a file, ls --hyperlink): the file in the editor
type is text
data matches 'file://[^/\s]*(/[^\s]+)'
arg isfile $1
data set $file
plumb to edit
plumb client editor

# Python's traceback: File "x.py", line 12, in f
type is text
data matches 'File "([^"]+)", line ([0-9]+)'
arg isfile $1
data set $file
attr add line=$2
plumb to edit
plumb client editor

# TypeScript's and MSBuild's FILE(LINE,COL): src/x.ts(12,5): error TS2322
type is text
data matches '($pathchar+)\(([0-9]+),([0-9]+)\)'
arg isfile $1
data set $file
attr add line=$2 col=$3
plumb to edit
plumb client editor

# FILE:LINE[:COL]: gcc, clang, go, rustc's -->, tsc --pretty, eslint, grep -n, ripgrep, pytest, Node and V8 stacks
type is text
data matches '($pathchar+):([0-9]+)(?::([0-9]+))?'
arg isfile $1
data set $file
attr add line=$2 col=$3
plumb to edit
plumb client editor

# Ruby's and Perl's "FILE line N": at x.pl line 12.
type is text
data matches '($pathchar+) line ([0-9]+)'
arg isfile $1
data set $file
attr add line=$2
plumb to edit
plumb client editor

# A diff's a/ and b/ paths: --- a/src/x.ts, +++ b/src/x.ts, diff --git a/x b/x
type is text
data matches '[ab]/($pathchar+)'
arg isfile $1
data set $file
plumb to edit
plumb client editor

# A path to a file that exists
type is text
data matches '$pathchar+'
arg isfile $0
data set $file
plumb to edit
plumb client editor

# A commit in the repository the pane is in: git show in a pane beside it
type is text
data matches '[0-9a-f]{7,40}'
arg isrev $0
plumb to git
plumb start git show $0
`;
