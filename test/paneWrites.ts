// Finds writes to a pane's or a session's fields and to the server's panes and
// sessions maps, by type: the TypeScript checker says which expressions are a
// `Pane` or a `Session` (kits/protocol/model.ts), so `pane.attrs = …`,
// `p.tag.commands.push(…)`, `delete pane.attrs[k]`, `s.name = …` and
// `server.panes.set(…)` are found whatever the variable is called, and an agent's
// own record with a `state` or a terminal's `cols` is not. Writes through an alias
// (`const a = pane.attrs; a.k = v`) are out of its sight.
import path from 'node:path';
import ts from 'typescript';

/** Methods that change the array, map or set they are called on. */
const MUTATORS = new Set(['push', 'pop', 'shift', 'unshift', 'splice', 'sort', 'reverse', 'fill', 'copyWithin', 'set', 'delete', 'clear', 'add']);

/** Whose state a write changes. */
export type Owner = 'pane' | 'session';

export interface PaneWrite {
  line: number;
  of: Owner;
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
  const typeNamed = (name: string): ts.Type => {
    const sym = modelSym && checker.getExportsOfModule(modelSym).find((s) => s.name === name);
    if (!sym) throw new Error(`kits/protocol/model.ts exports no ${name} type`);
    return checker.getDeclaredTypeOfSymbol(sym);
  };
  const owners: [Owner, ts.Type][] = [
    ['pane', typeNamed('Pane')],
    ['session', typeNamed('Session')],
  ];
  /** Whose state a value of type `t` is, if it is a pane or a session (or may be one). */
  const ownerOf = (t: ts.Type): Owner | null => {
    if (t.isUnion()) {
      for (const m of t.types) {
        const o = ownerOf(m);
        if (o) return o;
      }
      return null;
    }
    for (const [o, want] of owners) if (t === want || (checker.isTypeAssignableTo(t, want) && checker.isTypeAssignableTo(want, t))) return o;
    return null;
  };
  const typeOf = (e: ts.Expression) => checker.getTypeAtLocation(e);
  const strip = (e: ts.Expression): ts.Expression => {
    while (ts.isParenthesizedExpression(e) || ts.isNonNullExpression(e) || ts.isAsExpression(e) || ts.isSatisfiesExpression(e)) e = e.expression;
    return e;
  };
  /** Whose state `target` (a member access) reaches into: the pane or session nearest on its chain, if any. */
  const into = (target: ts.Expression): Owner | null => {
    let e = strip(target);
    while (ts.isPropertyAccessExpression(e) || ts.isElementAccessExpression(e)) {
      const obj = strip(e.expression);
      const o = ownerOf(typeOf(obj));
      if (o) return o;
      e = obj;
    }
    return null;
  };
  /**
   * Whose map `e` is: the server's `panes` or `sessions`, a member of that name
   * holding panes or sessions (a function's own map of panes is not).
   */
  const mapOf = (e: ts.Expression): Owner | null => {
    const m = strip(e);
    if (!ts.isPropertyAccessExpression(m) || (m.name.text !== 'panes' && m.name.text !== 'sessions')) return null;
    const t = typeOf(m);
    for (const p of t.isUnion() ? t.types : [t]) {
      const value = p.getSymbol()?.name === 'Map' ? checker.getTypeArguments(p as ts.TypeReference)[1] : undefined;
      const o = value ? ownerOf(value) : null;
      if (o && m.name.text === `${o}s`) return o;
    }
    return null;
  };

  function writes(rel: string): PaneWrite[] {
    const sf = program.getSourceFile(path.join(root, rel));
    if (!sf) throw new Error(`${rel} is not in the server's program`);
    const out: PaneWrite[] = [];
    const add = (n: ts.Node, of: Owner | null, what: string) => {
      if (!of) return;
      const { line } = sf.getLineAndCharacterOfPosition(n.getStart(sf));
      out.push({ line: line + 1, of, what: what.replace('OWNER', of), text: n.getText(sf).split('\n')[0]!.slice(0, 120) });
    };
    const visit = (n: ts.Node): void => {
      if (ts.isBinaryExpression(n) && n.operatorToken.kind >= ts.SyntaxKind.FirstAssignment && n.operatorToken.kind <= ts.SyntaxKind.LastAssignment) {
        add(n, into(n.left), 'assigns a OWNER field');
      } else if ((ts.isPrefixUnaryExpression(n) || ts.isPostfixUnaryExpression(n)) && (n.operator === ts.SyntaxKind.PlusPlusToken || n.operator === ts.SyntaxKind.MinusMinusToken)) {
        add(n, into(n.operand), 'steps a OWNER field');
      } else if (ts.isDeleteExpression(n)) {
        add(n, into(n.expression), 'deletes from a OWNER field');
      } else if (ts.isCallExpression(n)) {
        const callee = strip(n.expression);
        if (ts.isPropertyAccessExpression(callee) && MUTATORS.has(callee.name.text)) {
          const map = mapOf(callee.expression);
          if (map) add(n, map, 'changes the OWNERs map');
          else add(n, into(callee.expression), 'mutates a OWNER field in place');
        } else if (ts.isPropertyAccessExpression(callee) && callee.name.text === 'assign' && ts.isIdentifier(callee.expression) && callee.expression.text === 'Object' && n.arguments[0]) {
          const to = n.arguments[0];
          add(n, ownerOf(typeOf(strip(to))) ?? into(to), 'assigns into a OWNER');
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
