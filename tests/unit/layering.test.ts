// The layers of src/ (STYLE.md "Layers you can see in the tree", ARCHITECTURE.md): each may import only the
// layers listed for it. Type-only imports count too: a type from a higher layer is a dependency on it.
// Run: node --import tsx --test tests/unit/layering.test.ts
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sourceFiles } from '../fixtures/source-files';

const src = path.resolve(import.meta.dirname, '../../src');

/** What each layer may import (besides packages). `index` and `worker` are src/index.ts and src/worker.ts. */
const ALLOWED: Record<string, readonly string[]> = {
    contract: ['contract'],
    i18n: ['i18n'],
    // Worker side, lowest first.
    store: ['store', 'contract'],
    workspace: ['workspace', 'contract'],
    // Skill packages: parsing, archives, payloads, hashing; pure, used by the engine.
    skills: ['skills', 'contract'],
    // State formats (issue 36): JSON Pointer and MVU's patch dialect, its schema and blocks, the chat-variable
    // op log; pure, used by the tools and the engine in the worker and by the host on the page.
    state: ['state', 'contract'],
    // The script sandbox (QuickJS): its own worker bundle; the engine reaches it only by messages.
    sandbox: ['sandbox', 'workspace', 'contract'],
    'sandbox-worker': ['sandbox', 'contract'],
    // The card reader (issue 39 §1): a throwaway worker of its own that scans and parses one card's payload.
    'card-reader-worker': ['skills', 'contract'],
    tools: ['tools', 'workspace', 'state', 'contract'],
    engine: ['engine', 'tools', 'workspace', 'store', 'skills', 'state', 'contract'],
    worker: ['engine', 'contract'],
    // Page side: host and ui never import each other; the host talks to the worker through contract types only.
    host: ['host', 'state', 'contract', 'i18n'],
    ui: ['ui', 'contract', 'i18n'],
    index: ['host', 'ui', 'contract', 'i18n', 'runtime'],
    // The runtime src/index.ts loads on first use: wires host and ui like index.
    runtime: ['host', 'ui', 'contract', 'i18n', 'runtime'],
};

function layerOf(file: string): string {
    const [first = '', second] = path.relative(src, file).split(path.sep);
    return second === undefined ? first.replace(/\.tsx?$/, '') : first;
}

/** Every module a file names: static imports and re-exports (`import type` included), side-effect imports, import(). */
function specifiers(text: string): string[] {
    const found: string[] = [];
    const patterns = [/\b(?:import|export)\s[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/g, /\bimport\s*['"]([^'"]+)['"]/g, /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g];
    for (const pattern of patterns) for (const match of text.matchAll(pattern)) found.push(match[1]!);
    return found;
}

interface Violation {
    file: string;
    imports: string;
    from: string;
    to: string;
}

function violations(): Violation[] {
    const found: Violation[] = [];
    for (const file of sourceFiles(src)) {
        const from = layerOf(file);
        const allowed = ALLOWED[from];
        assert.ok(allowed, `${path.relative(src, file)}: layer "${from}" has no rule in this test; add one`);
        for (const specifier of specifiers(readFileSync(file, 'utf8'))) {
            if (!specifier.startsWith('.')) continue; // a package
            const target = path.resolve(path.dirname(file), specifier);
            if (!target.startsWith(src + path.sep)) continue;
            const to = layerOf(target.endsWith('.ts') || target.endsWith('.tsx') ? target : `${target}.ts`);
            if (!allowed.includes(to)) found.push({ file: path.relative(src, file), imports: specifier, from, to });
        }
    }
    return found;
}

const all = violations();

test('the scanner sees the imports it checks (a sanity check on the regular expressions)', () => {
    assert.deepEqual(specifiers(`import type { A } from '../contract/a';\nimport {\n  b,\n  c,\n} from "./b";\nexport { d } from './d';\nimport './e';\nconst f = import('./f');`), [
        '../contract/a',
        './b',
        './d',
        './e',
        './f',
    ]);
    assert.equal(layerOf(path.join(src, 'ui/timeline/rows.ts')), 'ui');
    assert.equal(layerOf(path.join(src, 'index.ts')), 'index');
});

for (const [layer, allowed] of Object.entries(ALLOWED)) {
    test(`src/${layer} imports only ${allowed.join(', ')}`, () => {
        const own = [...new Set(all.filter((v) => v.from === layer).map((v) => `src/${v.file} imports '${v.imports}' (${v.to})`))];
        assert.deepEqual(own, [], `forbidden imports:\n${own.join('\n')}`);
    });
}
