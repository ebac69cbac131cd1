// The value-import graph of the project's runtime code, read with the TypeScript
// parser: type-only imports and exports are left out (they vanish at build), so a
// cycle found here is one that decides load order at run time.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const EXTENSIONS = ['.ts', '.tsx', '/index.ts', '/index.tsx'];

/** The file a relative specifier names, or null (a package, or not ours). */
export function resolveSpec(from: string, spec: string): string | null {
  if (!spec.startsWith('.')) return null;
  const base = path.resolve(path.dirname(from), spec).replace(/\.(m?js)$/, '');
  if (/\.tsx?$/.test(base) && fs.existsSync(base)) return base;
  for (const ext of EXTENSIONS) if (fs.existsSync(base + ext)) return base + ext;
  return null;
}

/** Specifiers a file imports for their values: static imports and re-exports that are not type-only. */
export function valueImports(file: string, src = fs.readFileSync(file, 'utf8')): string[] {
  const sf = ts.createSourceFile(file, src, ts.ScriptTarget.Latest, false, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const out: string[] = [];
  for (const st of sf.statements) {
    if (ts.isImportDeclaration(st) && ts.isStringLiteral(st.moduleSpecifier)) {
      const c = st.importClause;
      if (c?.isTypeOnly) continue;
      const named = c?.namedBindings && ts.isNamedImports(c.namedBindings) ? c.namedBindings.elements : undefined;
      const onlyTypes = c !== undefined && !c.name && named !== undefined && named.length > 0 && named.every((e) => e.isTypeOnly);
      if (!onlyTypes) out.push(st.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(st) && st.moduleSpecifier && ts.isStringLiteral(st.moduleSpecifier)) {
      if (st.isTypeOnly) continue;
      const named = st.exportClause && ts.isNamedExports(st.exportClause) ? st.exportClause.elements : undefined;
      if (named && named.length > 0 && named.every((e) => e.isTypeOnly)) continue;
      out.push(st.moduleSpecifier.text);
    }
  }
  return out;
}

/** Every value-import cycle among the given files, each as the list of files around it (relative to root). */
export function valueCycles(files: string[], root: string): string[][] {
  const graph = new Map<string, string[]>();
  for (const f of files) graph.set(f, valueImports(f).map((s) => resolveSpec(f, s)).filter((r): r is string => r !== null && /\.tsx?$/.test(r)));
  // Tarjan's strongly connected components; each component of more than one file (or a self-import) holds a cycle.
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const comps: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        if (!graph.has(w)) graph.set(w, valueImports(w).map((s) => resolveSpec(w, s)).filter((r): r is string => r !== null && /\.tsx?$/.test(r)));
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const comp: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        comp.push(w);
      } while (w !== v);
      if (comp.length > 1 || (graph.get(v) ?? []).includes(v)) comps.push(comp);
    }
  };
  for (const f of files) if (!idx.has(f)) visit(f);
  // Name one concrete cycle per component: a shortest path back to its first file.
  return comps.map((comp) => {
    const inComp = new Set(comp);
    const start = [...comp].sort()[0]!;
    const prev = new Map<string, string>();
    const queue = [start];
    let end: string | undefined;
    while (queue.length && end === undefined) {
      const v = queue.shift()!;
      for (const w of graph.get(v) ?? []) {
        if (!inComp.has(w)) continue;
        if (w === start) {
          end = v;
          break;
        }
        if (!prev.has(w)) {
          prev.set(w, v);
          queue.push(w);
        }
      }
    }
    const chain = [start];
    for (let v = end; v !== undefined && v !== start; v = prev.get(v)) chain.splice(1, 0, v);
    return [...chain, start].map((f) => path.relative(root, f).split(path.sep).join('/'));
  });
}
