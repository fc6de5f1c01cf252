// Runs every test: unit tests (node), then the end-to-end tests in real SillyTavern and Chromium.
// `npm test -- unit` or `npm test -- e2e` runs one layer; extra paths run just those files.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function testFiles(dir) {
    return readdirSync(dir)
        .sort()
        .flatMap((name) => {
            const full = path.join(dir, name);
            if (statSync(full).isDirectory()) return testFiles(full);
            return name.endsWith('.test.ts') ? [path.relative(root, full)] : [];
        });
}

const args = process.argv.slice(2);
const layers = args.filter((a) => ['unit', 'e2e'].includes(a));
const explicit = args.filter((a) => a.endsWith('.ts'));
const files = explicit.length
    ? explicit
    : (layers.length ? layers : ['unit', 'e2e']).flatMap((layer) => testFiles(path.join(root, 'tests', layer)));

// E2E files each start their own SillyTavern; two at a time fits 2 cores and keeps the suite short.
const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-reporter=spec', ...files],
    { cwd: root, stdio: 'inherit' },
);
process.exit(result.status ?? 1);
