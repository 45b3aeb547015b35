// The shape a newcomer can read, checked: no function in src/ or templates/ over 70 lines, no two
// folders that import each other at run time, and no package imported that package.json does not
// declare (src/ and templates/ ship, so theirs must be dependencies; scripts/ and tests/ may use
// devDependencies too). tests/code-shape.test.ts runs it; `node scripts/code-shape.mjs` prints
// what it finds and exits 1 if anything.
//
// It parses with the TypeScript compiler (no type checking), so it reads a tree of hundreds of
// files in well under a second.
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import ts from 'typescript';

export const MAX_FUNCTION_LINES = 70;

const SOURCE = /\.(ts|tsx|mts|cts|js|mjs|cjs|jsx)$/;
const RESOLVE_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.mjs', '.cjs', '.jsx'];

/** Every source file under `dir` (relative to `root`), sorted; node_modules and dot folders skipped. */
function listSources(root, dir) {
  const out = [];
  const walk = (rel) => {
    let entries;
    try {
      entries = readdirSync(path.join(root, rel), { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (e.name.startsWith('.') || e.name === 'node_modules') continue;
      const child = path.posix.join(rel, e.name);
      if (e.isDirectory()) walk(child);
      else if (SOURCE.test(e.name) && !e.name.endsWith('.d.ts') && !e.name.endsWith('.d.mts'))
        out.push(child);
    }
  };
  walk(dir);
  return out.sort();
}

function parse(root, file) {
  const text = readFileSync(path.join(root, file), 'utf8');
  const kind = /x$/.test(file) ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  return ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
}

function isFunction(node) {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isFunctionExpression(node) ||
    ts.isArrowFunction(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node)
  );
}

function propertyName(name) {
  if (!name) return undefined;
  if (ts.isIdentifier(name) || ts.isPrivateIdentifier(name)) return name.text;
  if (ts.isStringLiteral(name) || ts.isNumericLiteral(name)) return name.text;
  return name.getText();
}

/** A function's name as a reader would look for it: its own, or what it is assigned or passed to. */
function functionName(node) {
  if (ts.isConstructorDeclaration(node)) {
    const cls = node.parent;
    return `${cls.name?.text ?? '(class)'}.constructor`;
  }
  if (node.name) {
    const own = propertyName(node.name);
    const cls = node.parent;
    if (ts.isClassLike(cls) && cls.name) return `${cls.name.text}.${own}`;
    return own;
  }
  let p = node.parent;
  while (
    p &&
    (ts.isParenthesizedExpression(p) || ts.isAsExpression(p) || ts.isSatisfiesExpression(p))
  )
    p = p.parent;
  if (!p) return '(anonymous)';
  if (ts.isVariableDeclaration(p) && ts.isIdentifier(p.name)) return p.name.text;
  if (ts.isPropertyAssignment(p) || ts.isPropertyDeclaration(p)) return propertyName(p.name);
  if (ts.isBinaryExpression(p)) return p.left.getText();
  if (ts.isExportAssignment(p)) return 'default export';
  if (ts.isReturnStatement(p) || ts.isArrowFunction(p)) {
    // A function another returns (a handler made by a factory): named by its maker.
    let q = p.parent;
    while (q && !isFunction(q)) q = q.parent;
    return q ? `${functionName(q)} (the function it returns)` : '(anonymous)';
  }
  if (ts.isCallExpression(p)) {
    // A component wrapped (memo(function ...)) or a callback: name it by the call.
    const callee = p.expression.getText();
    let q = p.parent;
    while (q && (ts.isParenthesizedExpression(q) || ts.isAsExpression(q))) q = q.parent;
    const holder = q && ts.isVariableDeclaration(q) && ts.isIdentifier(q.name) ? q.name.text : null;
    return holder ? `${holder} (${callee} callback)` : `(${callee} callback)`;
  }
  return '(anonymous)';
}

/** Functions longer than `max` lines, counted from the line their text starts to the line it ends. */
export function longFunctions(sourceFile, max = MAX_FUNCTION_LINES) {
  const found = [];
  const visit = (node) => {
    if (isFunction(node) && node.body) {
      const start = sourceFile.getLineAndCharacterOfPosition(node.getStart(sourceFile)).line;
      const end = sourceFile.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = end - start + 1;
      if (lines > max)
        found.push({ file: sourceFile.fileName, line: start + 1, name: functionName(node), lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return found;
}

/** An import that brings nothing but types: `import type`, or every named binding marked `type`. */
function typeOnlyClause(clause) {
  if (!clause) return false; // `import 'x'` runs x
  if (clause.isTypeOnly) return true;
  if (clause.name) return false;
  const b = clause.namedBindings;
  if (!b || ts.isNamespaceImport(b)) return false;
  return b.elements.length > 0 && b.elements.every((e) => e.isTypeOnly);
}

function typeOnlyExport(node) {
  if (node.isTypeOnly) return true;
  const c = node.exportClause;
  return (
    !!c && ts.isNamedExports(c) && c.elements.length > 0 && c.elements.every((e) => e.isTypeOnly)
  );
}

/** What a file imports: each specifier with whether it is needed at run time. */
export function importsOf(sourceFile) {
  const out = [];
  const visit = (node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      out.push({
        specifier: node.moduleSpecifier.text,
        runtime: !typeOnlyClause(node.importClause),
      });
    } else if (
      ts.isExportDeclaration(node) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      out.push({ specifier: node.moduleSpecifier.text, runtime: !typeOnlyExport(node) });
    } else if (
      ts.isImportEqualsDeclaration(node) &&
      ts.isExternalModuleReference(node.moduleReference) &&
      ts.isStringLiteral(node.moduleReference.expression)
    ) {
      out.push({ specifier: node.moduleReference.expression.text, runtime: !node.isTypeOnly });
    } else if (
      ts.isCallExpression(node) &&
      node.arguments.length >= 1 &&
      ts.isStringLiteralLike(node.arguments[0]) &&
      (node.expression.kind === ts.SyntaxKind.ImportKeyword ||
        (ts.isIdentifier(node.expression) && node.expression.text === 'require'))
    ) {
      out.push({ specifier: node.arguments[0].text, runtime: true });
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return out;
}

/** The package a bare specifier names, or null for a relative path, a builtin or `node:`. */
export function packageOf(specifier) {
  if (specifier.startsWith('.') || specifier.startsWith('/')) return null;
  if (specifier.startsWith('node:')) return null;
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
  if (builtinModules.includes(name)) return null;
  return name;
}

/** The file a relative specifier points at (TypeScript's `./x.js` meaning `./x.ts`); a path not among them as it is. */
function resolveRelative(fromFile, specifier, known) {
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(fromFile), specifier));
  const stem = base.replace(/\.(m|c)?jsx?$/, '');
  const candidates = [base, ...RESOLVE_EXTENSIONS.map((e) => stem + e)];
  candidates.push(...RESOLVE_EXTENSIONS.map((e) => `${base}/index${e}`));
  for (const c of candidates) if (known.has(c)) return c;
  return base; // a stylesheet, JSON or a file outside the checked folders
}

/**
 * The folder a file belongs to for the cycle check: the first directory under src/ (`src/site`),
 * and `templates` whole. A file at the top of src/ (`src/urls.ts`) is in no folder: it stands for
 * itself, so two folders that both use it are not made one.
 */
export function folderOf(file) {
  const parts = file.split('/');
  if (parts[0] === 'src') return parts.length > 2 ? `src/${parts[1]}` : file;
  return parts[0];
}

/** Strongly connected components of a graph given as Map<node, Set<node>> (Tarjan). */
function components(graph) {
  let index = 0;
  const idx = new Map();
  const low = new Map();
  const stack = [];
  const on = new Set();
  const out = [];
  const strong = (v) => {
    idx.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        strong(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) {
      const comp = [];
      let w;
      do {
        w = stack.pop();
        on.delete(w);
        comp.push(w);
      } while (w !== v);
      out.push(comp.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!idx.has(v)) strong(v);
  return out;
}

/**
 * Folders that import each other at run time, directly or round a longer loop: each cycle with
 * the file imports that make its edges (the first few of each, so the fix is findable).
 */
export function folderCycles(files, parsed) {
  const known = new Set(files);
  const graph = new Map();
  const via = new Map(); // "a -> b" -> ["file imports target", ...]
  for (const file of files) {
    const from = folderOf(file);
    if (!graph.has(from)) graph.set(from, new Set());
    for (const imp of importsOf(parsed.get(file))) {
      if (!imp.runtime || !imp.specifier.startsWith('.')) continue;
      const target = resolveRelative(file, imp.specifier, known);
      const to = folderOf(target);
      if (to === from || !known.has(target)) continue;
      graph.get(from).add(to);
      const key = `${from} -> ${to}`;
      if (!via.has(key)) via.set(key, []);
      via.get(key).push(`${file} imports ${target}`);
    }
  }
  const cycles = [];
  for (const comp of components(graph)) {
    if (comp.length < 2) continue;
    const inside = new Set(comp);
    const edges = [];
    for (const a of comp)
      for (const b of [...(graph.get(a) ?? [])].sort())
        if (inside.has(b)) edges.push({ edge: `${a} -> ${b}`, via: via.get(`${a} -> ${b}`) });
    cycles.push({ folders: comp, edges });
  }
  return cycles;
}

/** Packages imported but not declared: src/ and templates/ need dependencies, the rest may use dev. */
export function undeclaredImports(files, parsed, pkg) {
  const deps = new Set(Object.keys(pkg.dependencies ?? {}));
  const dev = new Set([...deps, ...Object.keys(pkg.devDependencies ?? {})]);
  const self = pkg.name;
  const found = [];
  for (const file of files) {
    const ships = file.startsWith('src/') || file.startsWith('templates/');
    for (const imp of importsOf(parsed.get(file))) {
      const name = packageOf(imp.specifier);
      if (!name || name === self) continue;
      // A type-only import is erased: the package's types, from any list, are enough.
      const runtime = ships && imp.runtime;
      const ok = runtime
        ? deps.has(name)
        : dev.has(name) || (!imp.runtime && dev.has(`@types/${name}`));
      if (!ok)
        found.push({
          file,
          specifier: imp.specifier,
          package: name,
          need: runtime ? 'dependencies' : 'dependencies or devDependencies',
        });
    }
  }
  return found;
}

/**
 * Everything the check finds in the tree at `root`: long functions in `shaped` folders, cycles
 * between the folders of `shaped`, undeclared imports anywhere in `shaped` and `others`.
 */
export function checkCodeShape(
  root,
  { shaped = ['src', 'templates'], others = ['scripts', 'tests'], max = MAX_FUNCTION_LINES } = {},
) {
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  const shapedFiles = shaped.flatMap((d) => listSources(root, d));
  const otherFiles = others.flatMap((d) => listSources(root, d));
  const parsed = new Map();
  for (const f of [...shapedFiles, ...otherFiles]) parsed.set(f, parse(root, f));
  return {
    longFunctions: shapedFiles.flatMap((f) => longFunctions(parsed.get(f), max)),
    cycles: folderCycles(shapedFiles, parsed),
    undeclared: undeclaredImports([...shapedFiles, ...otherFiles], parsed, pkg),
  };
}

/** The findings as lines a reader can act on; empty when the tree is in shape. */
export function describe(result, max = MAX_FUNCTION_LINES) {
  const lines = [];
  for (const f of result.longFunctions)
    lines.push(`${f.file}:${f.line} ${f.name} is ${f.lines} lines (at most ${max})`);
  for (const c of result.cycles) {
    lines.push(`folders import each other at run time: ${c.folders.join(', ')}`);
    for (const e of c.edges) {
      lines.push(`  ${e.edge}`);
      for (const v of e.via.slice(0, 3)) lines.push(`    ${v}`);
      if (e.via.length > 3) lines.push(`    and ${e.via.length - 3} more`);
    }
  }
  for (const u of result.undeclared)
    lines.push(`${u.file} imports '${u.specifier}': ${u.package} is not in package.json ${u.need}`);
  return lines;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = path.resolve(import.meta.dirname, '..');
  const lines = describe(checkCodeShape(root));
  for (const l of lines) console.log(l);
  if (lines.length) process.exit(1);
  console.log('code shape: no long function, folder cycle or undeclared import');
}
