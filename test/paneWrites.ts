// Finds writes to a pane's fields and to the server's panes map, by type: the
// TypeScript checker says which expressions are a `Pane` (kits/protocol/model.ts),
// so `pane.attrs = …`, `p.tag.commands.push(…)`, `delete pane.attrs[k]` and
// `server.panes.set(…)` are found whatever the variable is called, and an agent's
// own record with a `state` or a terminal's `cols` is not. Writes through an alias
// (`const a = pane.attrs; a.k = v`) are out of its sight.
import path from 'node:path';
import ts from 'typescript';

/** Methods that change the array, map or set they are called on. */
const MUTATORS = new Set(['push', 'pop', 'shift', 'unshift', 'splice', 'sort', 'reverse', 'fill', 'copyWithin', 'set', 'delete', 'clear', 'add']);

export interface PaneWrite {
  line: number;
  what: string;
  text: string;
}

export interface PaneWriteScanner {
  /** The writes in one file of the program (a path relative to the root). */
  writes(rel: string): PaneWrite[];
  /** Every non-test file under server/, relative to the root. */
  serverFiles(): string[];
}

/**
 * Builds the server's program once (server/tsconfig.json); `extra` adds virtual
 * files (root-relative path → source), for probes that must be found.
 */
export function paneWriteScanner(root: string, extra: Record<string, string> = {}): PaneWriteScanner {
  const cfg = ts.getParsedCommandLineOfConfigFile(path.join(root, 'server/tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => { throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n')); } });
  if (!cfg) throw new Error('cannot read server/tsconfig.json');
  const options = { ...cfg.options, noEmit: true };
  const virtual = new Map(Object.entries(extra).map(([rel, src]) => [path.join(root, rel), src]));
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, lang, ...rest) => (virtual.has(name) ? ts.createSourceFile(name, virtual.get(name)!, lang) : getSourceFile(name, lang, ...rest));
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => virtual.has(name) || fileExists(name);
  const readFile = host.readFile.bind(host);
  host.readFile = (name) => virtual.get(name) ?? readFile(name);
  const program = ts.createProgram({ rootNames: [...cfg.fileNames, ...virtual.keys()], options, host });
  const checker = program.getTypeChecker();

  const modelFile = program.getSourceFile(path.join(root, 'kits/protocol/model.ts'));
  const modelSym = modelFile && checker.getSymbolAtLocation(modelFile);
  const paneSym = modelSym && checker.getExportsOfModule(modelSym).find((s) => s.name === 'Pane');
  if (!paneSym) throw new Error('kits/protocol/model.ts exports no Pane type');
  const paneType = checker.getDeclaredTypeOfSymbol(paneSym);

  const isPane = (t: ts.Type): boolean => {
    if (t.isUnion()) return t.types.some(isPane);
    return t === paneType || (checker.isTypeAssignableTo(t, paneType) && checker.isTypeAssignableTo(paneType, t));
  };
  const typeOf = (e: ts.Expression) => checker.getTypeAtLocation(e);
  const strip = (e: ts.Expression): ts.Expression => {
    while (ts.isParenthesizedExpression(e) || ts.isNonNullExpression(e) || ts.isAsExpression(e) || ts.isSatisfiesExpression(e)) e = e.expression;
    return e;
  };
  /** Whether `target` (a member access) reaches into a pane: some object on its chain is one. */
  const intoPane = (target: ts.Expression): boolean => {
    let e = strip(target);
    while (ts.isPropertyAccessExpression(e) || ts.isElementAccessExpression(e)) {
      const obj = strip(e.expression);
      if (isPane(typeOf(obj))) return true;
      e = obj;
    }
    return false;
  };
  /** Whether `e` is the server's panes map: a `panes` member holding panes (a function's own map of panes is not). */
  const isPaneMap = (e: ts.Expression): boolean => {
    const m = strip(e);
    if (!ts.isPropertyAccessExpression(m) || m.name.text !== 'panes') return false;
    const t = typeOf(m);
    const parts = t.isUnion() ? t.types : [t];
    return parts.some((p) => p.getSymbol()?.name === 'Map' && (checker.getTypeArguments(p as ts.TypeReference)[1] ?? null) !== null && isPane(checker.getTypeArguments(p as ts.TypeReference)[1]!));
  };

  function writes(rel: string): PaneWrite[] {
    const sf = program.getSourceFile(path.join(root, rel));
    if (!sf) throw new Error(`${rel} is not in the server's program`);
    const out: PaneWrite[] = [];
    const add = (n: ts.Node, what: string) => {
      const { line } = sf.getLineAndCharacterOfPosition(n.getStart(sf));
      out.push({ line: line + 1, what, text: n.getText(sf).split('\n')[0]!.slice(0, 120) });
    };
    const visit = (n: ts.Node): void => {
      if (ts.isBinaryExpression(n) && n.operatorToken.kind >= ts.SyntaxKind.FirstAssignment && n.operatorToken.kind <= ts.SyntaxKind.LastAssignment) {
        if (intoPane(n.left)) add(n, 'assigns a pane field');
      } else if ((ts.isPrefixUnaryExpression(n) || ts.isPostfixUnaryExpression(n)) && (n.operator === ts.SyntaxKind.PlusPlusToken || n.operator === ts.SyntaxKind.MinusMinusToken)) {
        if (intoPane(n.operand)) add(n, 'steps a pane field');
      } else if (ts.isDeleteExpression(n)) {
        if (intoPane(n.expression)) add(n, 'deletes from a pane field');
      } else if (ts.isCallExpression(n)) {
        const callee = strip(n.expression);
        if (ts.isPropertyAccessExpression(callee) && MUTATORS.has(callee.name.text)) {
          if (isPaneMap(callee.expression)) add(n, 'changes the panes map');
          else if (intoPane(callee.expression)) add(n, 'mutates a pane field in place');
        } else if (ts.isPropertyAccessExpression(callee) && callee.name.text === 'assign' && ts.isIdentifier(callee.expression) && callee.expression.text === 'Object' && n.arguments[0]) {
          const to = n.arguments[0];
          if (isPane(typeOf(strip(to))) || intoPane(to)) add(n, 'assigns into a pane');
        }
      }
      ts.forEachChild(n, visit);
    };
    visit(sf);
    return out;
  }

  function serverFiles(): string[] {
    const dir = path.join(root, 'server') + path.sep;
    return program
      .getRootFileNames()
      .filter((f) => f.startsWith(dir) && !/\.test\.tsx?$/.test(f) && !virtual.has(f))
      .map((f) => path.relative(root, f).split(path.sep).join('/'));
  }

  return { writes, serverFiles };
}
