// The user's documents (README.md, docs/, CONTRIBUTING.md) against the repository they describe: links that
// lead somewhere, the files they name there, the README short with its two commands on the first screen, every error code named, and
// the performance table that of the committed bench summary.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { RECOVERABLE_CODES, RUNTIME_FAILURE_CODES, WIRE_ERROR_CODES } from '../../src/contract/errors';

const root = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
const documents = ['README.md', 'CONTRIBUTING.md', ...readdirSync(path.join(root, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];

/** Markdown without code: a link-like text inside a code span or fence is not a link. */
function prose(markdown: string): string {
    return markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
}

/** GitHub's heading anchors (lower case, punctuation dropped, spaces to hyphens, repeats numbered), and explicit ids. */
function anchors(markdown: string): Set<string> {
    const seen = new Map<string, number>();
    const ids = new Set<string>();
    for (const [, heading] of markdown.replace(/^```[\s\S]*?^```/gm, '').matchAll(/^#{1,6} +(.+?) *#*$/gm)) {
        const slug = heading!
            .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
            .toLowerCase()
            .replace(/[^\p{L}\p{N}\s_-]/gu, '')
            .replace(/ /g, '-');
        const count = seen.get(slug) ?? 0;
        seen.set(slug, count + 1);
        ids.add(count ? `${slug}-${count}` : slug);
    }
    for (const [, id] of markdown.matchAll(/<a id="([^"]+)"><\/a>/g)) ids.add(id!);
    return ids;
}

test('every relative link in the documents leads to a file in the repository, and to a heading there', () => {
    const broken: string[] = [];
    for (const document of documents) {
        const text = read(document);
        for (const [, target] of prose(text).matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?: "[^"]*")?\)/g)) {
            if (/^[a-z]+:/i.test(target!)) continue;
            const [file, anchor] = target!.split('#') as [string, string | undefined];
            const resolved = file ? path.join(path.dirname(document), decodeURIComponent(file)) : document;
            if (!existsSync(path.join(root, resolved))) {
                broken.push(`${document}: ${target} (no ${resolved})`);
                continue;
            }
            if (anchor && resolved.endsWith('.md') && !anchors(read(resolved)).has(anchor)) broken.push(`${document}: ${target} (no heading #${anchor} in ${resolved})`);
        }
    }
    assert.deepEqual(broken, []);
});

test('every repository path the documents name in code (`src/…`, `tests/…`, `bench/…`, …) exists', () => {
    const missing: string[] = [];
    for (const document of documents) {
        for (const [, named] of read(document).matchAll(/`((?:src|tests|bench|scripts|types|styles|i18n|docs)\/[^`\s*{}<>…]+)`/g)) {
            // bench/results/ holds what `npm run bench` writes: ignored by git, so not there in a fresh clone.
            if (named!.startsWith('bench/results/')) continue;
            if (!existsSync(path.join(root, named!.replace(/\/$/, '')))) missing.push(`${document}: ${named}`);
        }
    }
    assert.deepEqual(missing, []);
});

test('every page in docs/ is linked from the README', () => {
    const readme = read('README.md');
    const pages = documents.filter((file) => file.startsWith('docs/'));
    assert.ok(pages.length >= 10, 'the usage details live in docs/');
    assert.deepEqual(pages.filter((page) => !readme.includes(`](${page}`)), []);
    assert.match(readme, /\]\(CONTRIBUTING\.md\)/);
});

test('the README is one a user reads to the end: at most 300 lines, the two commands and the install on its first screen', () => {
    const lines = read('README.md').split('\n');
    assert.ok(lines.length <= 300, `README.md has ${lines.length} lines`);
    const firstScreen = lines.slice(0, 50).join('\n');
    assert.match(firstScreen, /^npm start\b/m);
    assert.match(firstScreen, /^npm test\b/m);
    assert.match(firstScreen, /Install extension/);
    // CI runs the README's test command (.ci/run).
    assert.match(read('.ci/run'), /^npm test$/m);
});

test('docs/errors.md names every error code, and the README links to it', () => {
    const errors = read('docs/errors.md');
    const codes = [...RECOVERABLE_CODES, ...RUNTIME_FAILURE_CODES, ...WIRE_ERROR_CODES];
    assert.deepEqual(codes.filter((code) => !errors.includes(`\`${code}\``)), []);
    assert.match(read('README.md'), /\]\(docs\/errors\.md\)/);
});

test('bench/ holds a summary under 200 KiB and no raw results; docs/performance.md shows its table', () => {
    const committed = execFileSync('git', ['ls-files', 'bench'], { cwd: root, encoding: 'utf8' }).trim().split('\n');
    const json = committed.filter((file) => file.endsWith('.json'));
    assert.deepEqual(json, ['bench/summary.json']);
    assert.ok(statSync(path.join(root, 'bench/summary.json')).size < 200 * 1024);
    const summary = JSON.parse(read('bench/summary.json')) as { table: string; runs: Array<{ line: string }> };
    const performance = read('docs/performance.md');
    assert.ok(performance.includes(summary.table), 'the table in docs/performance.md is the one in bench/summary.json');
    for (const run of summary.runs) assert.ok(performance.includes(run.line), run.line);
});
