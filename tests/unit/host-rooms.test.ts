// The page side's rooms (ARCHITECTURE.md "Layout", issue 33 §5 and §6), checked on the source itself:
//
// 1. src/host/ is made of rooms: at most 12 files stay at its top level, and no room (a folder right under
//    it, subfolders included) holds more than 20 files.
// 2. SillyTavern is at the bottom: only src/host/sillytavern/ touches the page's globals and SillyTavern's
//    own modules. Outside it, a host file may not
//    - name the page's global object or what SillyTavern puts on it, as a free identifier (not a property
//      name, not in a comment or string): globalThis, window, self, document, SillyTavern, toastr, jQuery,
//      $, alert, confirm. Browser APIs that are not the page's state (fetch, navigator, Worker,
//      BroadcastChannel, setTimeout, console, performance) are not on the list: a request to SillyTavern's
//      server through fetch is HTTP, and stays with the code that makes it (model/, skills/);
//    - declare globals (`declare global`);
//    - load a module at run time (any `import()`), import the module loader sillytavern/st-module.ts, or
//      name one of SillyTavern's page modules (a string '/scripts/…', '/script.js' or '/lib.js').
//    And sillytavern/ itself imports nothing of host/ but its own files and host/'s top-level ones.
// 3. No file of src/ takes part in an import cycle (the engine's and the page's alike), and neither do the rooms of src/host: they
//    stand in floors (sillytavern/ at the bottom, api/ at the top), each importing only rooms below it.
//    Type-only imports (`import type`, or every name marked `type`) are left out: they are erased from the
//    build and order nothing at run time.
//
// The checks read the syntax (TypeScript's parser), not the types: a name is judged by how it is written.
// Run: node --import tsx --test tests/unit/host-rooms.test.ts
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { sourceFiles } from '../fixtures/source-files';

const src = path.resolve(import.meta.dirname, '../../src');
const host = path.join(src, 'host');
const bottom = path.join(host, 'sillytavern');

const MAX_TOP_LEVEL = 12;
const MAX_ROOM = 20;
const PAGE_GLOBALS = new Set(['globalThis', 'window', 'self', 'document', 'SillyTavern', 'toastr', 'jQuery', '$', 'alert', 'confirm']);
const ST_MODULE_URL = /^\/(?:scripts\/|script\.js$|lib\.js$)/;

const rel = (file: string) => path.relative(src, file);
const inside = (file: string, dir: string) => file.startsWith(dir + path.sep);

function parse(file: string, text = readFileSync(file, 'utf8')): ts.SourceFile {
    return ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
}

function walk(node: ts.Node, visit: (node: ts.Node) => void): void {
    visit(node);
    ts.forEachChild(node, (child) => walk(child, visit));
}

interface ModuleReference {
    specifier: string;
    /** Erased from the build: `import type`, `export type`, or every imported name marked `type`. */
    typeOnly: boolean;
    dynamic: boolean;
}

function moduleReferences(source: ts.SourceFile): ModuleReference[] {
    const found: ModuleReference[] = [];
    walk(source, (node) => {
        if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
            const clause = node.importClause;
            const named = clause?.namedBindings;
            const allNamedTypeOnly = named !== undefined && ts.isNamedImports(named) && named.elements.length > 0 && named.elements.every((element) => element.isTypeOnly) && !clause?.name;
            found.push({ specifier: node.moduleSpecifier.text, typeOnly: Boolean(clause?.isTypeOnly) || allNamedTypeOnly, dynamic: false });
        } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
            found.push({ specifier: node.moduleSpecifier.text, typeOnly: node.isTypeOnly, dynamic: false });
        } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
            const [argument] = node.arguments;
            found.push({ specifier: argument && ts.isStringLiteralLike(argument) ? argument.text : '<expression>', typeOnly: false, dynamic: true });
        }
    });
    return found;
}

/** The file a relative specifier names, or null for a package (or a file outside src/). */
function resolve(from: string, specifier: string): string | null {
    if (!specifier.startsWith('.')) return null;
    const base = path.resolve(path.dirname(from), specifier);
    for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')]) {
        try {
            if (statSync(candidate).isFile()) return candidate;
        } catch {
            // not this one
        }
    }
    return null;
}

/** Is this identifier a name of something else (a property, a member, a key), not a reference to a variable? */
function isPropertyName(node: ts.Identifier): boolean {
    const parent = node.parent;
    if ((ts.isPropertyAccessExpression(parent) || ts.isQualifiedName(parent)) && (ts.isPropertyAccessExpression(parent) ? parent.name : parent.right) === node) return true;
    if ((ts.isPropertyAssignment(parent) || ts.isPropertySignature(parent) || ts.isPropertyDeclaration(parent) || ts.isMethodDeclaration(parent) || ts.isMethodSignature(parent)) && parent.name === node) return true;
    if ((ts.isGetAccessorDeclaration(parent) || ts.isSetAccessorDeclaration(parent) || ts.isEnumMember(parent)) && parent.name === node) return true;
    if (ts.isBindingElement(parent) && parent.propertyName === node) return true;
    if (ts.isJsxAttribute(parent) || ts.isImportSpecifier(parent) || ts.isExportSpecifier(parent)) return true;
    return false;
}

interface Finding {
    file: string;
    line: number;
    what: string;
}

/** What a host file outside sillytavern/ may not do (rule 2), as findings. */
function touchesOfSillyTavern(file: string, source: ts.SourceFile): Finding[] {
    const found: Finding[] = [];
    const at = (node: ts.Node, what: string) => found.push({ file: rel(file), line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1, what });
    walk(source, (node) => {
        if (ts.isIdentifier(node) && PAGE_GLOBALS.has(node.text) && !isPropertyName(node)) at(node, `names the page's global ${node.text}`);
        if (ts.isModuleDeclaration(node) && (node.flags & ts.NodeFlags.GlobalAugmentation) !== 0) at(node, 'declares globals (declare global)');
        if (ts.isStringLiteralLike(node) && ST_MODULE_URL.test(node.text)) at(node, `names SillyTavern's module ${node.text}`);
    });
    for (const reference of moduleReferences(source)) {
        if (reference.dynamic) found.push({ file: rel(file), line: 0, what: `loads a module at run time: import(${reference.specifier})` });
        if (resolve(file, reference.specifier) === path.join(bottom, 'st-module.ts')) found.push({ file: rel(file), line: 0, what: 'imports the module loader sillytavern/st-module.ts' });
    }
    return found;
}

/** Every cycle of run-time imports among `files`, each as its files in order (Tarjan's strongly connected components). */
function importCycles(files: readonly string[], importsOf: (file: string) => string[]): string[][] {
    const index = new Map<string, number>();
    const low = new Map<string, number>();
    const stack: string[] = [];
    const onStack = new Set<string>();
    const cycles: string[][] = [];
    let next = 0;
    const connect = (file: string) => {
        index.set(file, next);
        low.set(file, next);
        next += 1;
        stack.push(file);
        onStack.add(file);
        for (const target of importsOf(file)) {
            if (!index.has(target)) {
                connect(target);
                low.set(file, Math.min(low.get(file)!, low.get(target)!));
            } else if (onStack.has(target)) {
                low.set(file, Math.min(low.get(file)!, index.get(target)!));
            }
        }
        if (low.get(file) !== index.get(file)) return;
        const component: string[] = [];
        let member: string;
        do {
            member = stack.pop()!;
            onStack.delete(member);
            component.push(member);
        } while (member !== file);
        if (component.length > 1 || importsOf(file).includes(file)) cycles.push(component.reverse());
    };
    for (const file of files) if (!index.has(file)) connect(file);
    return cycles;
}

const hostFiles = sourceFiles(host);
const allFiles = sourceFiles(src);
const parsed = new Map(allFiles.map((file) => [file, parse(file)]));

/** The page files a page file imports: all of them, or only those it needs at run time. */
function importsOf(file: string, { typeOnly }: { typeOnly: boolean }): string[] {
    return moduleReferences(parsed.get(file)!)
        .filter((reference) => typeOnly || !reference.typeOnly)
        .map((reference) => resolve(file, reference.specifier))
        .filter((target): target is string => target !== null && parsed.has(target));
}

test('the checks see what they look for (a sanity check on the rules themselves)', () => {
    const sample = parse(
        path.join(host, 'chat', 'sample.ts'),
        [
            "import type { A } from '../a';",
            "import { type B, c } from '../b';",
            "import { type D } from '../d';",
            "export type { E } from '../e';",
            'const x = { document: 1, window: 2 };',
            'x.document; x.toastr;',
            'globalThis.toastr?.warning("hi");',
            '$(".mes");',
            "const m = import('/scripts/openai.js');",
            'declare global { var Y: number }',
            '// document.body in a comment',
            "const s = 'window';",
        ].join('\n'),
    );
    assert.deepEqual(
        moduleReferences(sample).map((r) => [r.specifier, r.typeOnly, r.dynamic]),
        [
            ['../a', true, false],
            ['../b', false, false],
            ['../d', true, false],
            ['../e', true, false],
            ['/scripts/openai.js', false, true],
        ],
    );
    assert.deepEqual(
        touchesOfSillyTavern(path.join(host, 'chat', 'sample.ts'), sample).map((f) => f.what),
        [
            "names the page's global globalThis",
            "names the page's global $",
            "names SillyTavern's module /scripts/openai.js",
            'declares globals (declare global)',
            'loads a module at run time: import(/scripts/openai.js)',
        ],
    );
    const graph: Record<string, string[]> = { a: ['b'], b: ['c'], c: ['a'], d: ['d'], e: ['a'] };
    assert.deepEqual(importCycles(Object.keys(graph), (file) => graph[file]!), [['a', 'b', 'c'], ['d']]);
});

test(`src/host keeps at most ${MAX_TOP_LEVEL} files at its top level, and at most ${MAX_ROOM} in each room`, () => {
    const topLevel = hostFiles.filter((file) => path.dirname(file) === host);
    assert.ok(topLevel.length <= MAX_TOP_LEVEL, `${topLevel.length} files at src/host's top level (at most ${MAX_TOP_LEVEL}): ${topLevel.map((file) => `src/${rel(file)}`).join(', ')}`);
    const rooms = new Map<string, number>();
    for (const file of hostFiles) {
        const room = path.relative(host, file).split(path.sep);
        if (room.length > 1) rooms.set(room[0]!, (rooms.get(room[0]!) ?? 0) + 1);
    }
    const crowded = [...rooms].filter(([, count]) => count > MAX_ROOM).map(([room, count]) => `src/host/${room}/ holds ${count} files`);
    assert.deepEqual(crowded, [], `rooms over ${MAX_ROOM} files`);
});

test("only src/host/sillytavern/ touches the page's globals and SillyTavern's modules", () => {
    const findings = hostFiles.filter((file) => !inside(file, bottom)).flatMap((file) => touchesOfSillyTavern(file, parsed.get(file)!));
    assert.deepEqual(
        findings.map((f) => `src/${f.file}${f.line ? `:${f.line}` : ''} ${f.what}`),
        [],
        'reach SillyTavern through src/host/sillytavern/ instead',
    );
});

test('src/host/sillytavern/ is the bottom room: it imports nothing of host/ but its own files and the top-level ones', () => {
    // Type-only imports count here: a type from a room above is a dependency on it all the same.
    const upward = hostFiles
        .filter((file) => inside(file, bottom))
        .flatMap((file) => importsOf(file, { typeOnly: true }).map((target) => ({ file, target })))
        .filter(({ target }) => inside(target, host) && !inside(target, bottom) && path.dirname(target) !== host)
        .map(({ file, target }) => `src/${rel(file)} imports src/${rel(target)}`);
    assert.deepEqual(upward, []);
});

test('no file of src/ takes part in an import cycle (type-only imports aside)', () => {
    const cycles = importCycles(allFiles, (file) => importsOf(file, { typeOnly: false })).map((cycle) => cycle.map((file) => `src/${rel(file)}`).join(' → '));
    assert.deepEqual(cycles, [], 'import cycles');
});

test('the rooms of src/host import each other in one direction only (no room reaches back up)', () => {
    const roomOf = (file: string) => {
        const parts = path.relative(host, file).split(path.sep);
        return parts.length > 1 ? parts[0]! : null;
    };
    const rooms = new Map<string, Set<string>>();
    for (const file of hostFiles) {
        const room = roomOf(file);
        if (room === null) continue;
        const targets = rooms.get(room) ?? new Set<string>();
        rooms.set(room, targets);
        for (const target of importsOf(file, { typeOnly: false })) {
            const other = inside(target, host) ? roomOf(target) : null;
            if (other !== null && other !== room) targets.add(other);
        }
    }
    const cycles = importCycles([...rooms.keys()], (room) => [...(rooms.get(room) ?? [])]).map((cycle) => cycle.map((room) => `host/${room}/`).join(' → '));
    assert.deepEqual(cycles, [], 'rooms that import each other');
});
