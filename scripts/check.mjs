// `npm run check`: the edit loop, in under a minute. Typechecks everything and runs the unit tests that need
// neither a browser, nor SillyTavern, nor a network server (the layering test is one of them), side by side.
// `npm test` still runs everything, and is what CI runs.
//
// Selection rule: every tests/unit/*.test.ts runs, except the files listed in EXCLUDED with the reason.
// A new unit test is therefore included by default; excluding one takes a line here that says why.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const UNIT = 'tests/unit';

const EXCLUDED = {
    'tests/unit/dist-fresh.test.ts':
        'builds both bundles three times and compares them with the committed dist/: it fails by design in the middle of an edit, until `npm run build`',
    'tests/unit/mock-model.test.ts': "starts the mock model's HTTP server on a local port and a child process that talks to it",
    'tests/unit/resume-sweep.test.ts':
        'cuts two scripted runs at every event boundary and resumes each, on two storages: about 260 whole runs and 30 CPU-seconds; run-lifecycle.test.ts and projection.test.ts keep resume in the loop',
};

// A stale entry would silently shrink nothing, but it would mislead the next reader: fail instead.
const stale = Object.keys(EXCLUDED).filter((file) => !existsSync(path.join(root, file)));
if (stale.length) {
    console.error(`npm run check: EXCLUDED in scripts/check.mjs names files that do not exist: ${stale.join(', ')}`);
    process.exit(1);
}

const files = readdirSync(path.join(root, UNIT))
    .filter((name) => name.endsWith('.test.ts'))
    .sort()
    .map((name) => `${UNIT}/${name}`)
    .filter((file) => !(file in EXCLUDED));

/** Runs a command; resolves with its exit code, its output (when buffered) and its time. */
function run(label, args, { buffer }) {
    const started = Date.now();
    return new Promise((resolve) => {
        const child = spawn(process.execPath, args, { cwd: root, stdio: buffer ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
        let output = '';
        if (buffer) {
            child.stdout.on('data', (chunk) => (output += chunk));
            child.stderr.on('data', (chunk) => (output += chunk));
        }
        child.on('close', (code) => resolve({ label, code: code ?? 1, output, seconds: (Date.now() - started) / 1000 }));
    });
}

const started = Date.now();
console.log(`npm run check: typecheck, and ${files.length} unit test files (${Object.keys(EXCLUDED).length} left to npm test: see scripts/check.mjs)`);
const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
// Incremental: the edit loop's second typecheck reuses the first's work (tmp/ is git-ignored).
const typecheck = run('typecheck', [tsc, '--noEmit', '-p', 'tsconfig.json', '--incremental', '--tsBuildInfoFile', 'tmp/check/tsconfig.tsbuildinfo'], { buffer: true });
const tests = run('unit tests', ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-reporter=dot', ...files], { buffer: false });
const results = await Promise.all([typecheck, tests]);

for (const result of results) {
    if (result.output.trim()) console.log(`\n${result.label}:\n${result.output.trimEnd()}`);
}
console.log('');
for (const result of results) console.log(`${result.code === 0 ? 'ok  ' : 'FAIL'} ${result.label} (${result.seconds.toFixed(1)} s)`);
console.log(`npm run check: ${((Date.now() - started) / 1000).toFixed(1)} s`);
process.exit(results.every((result) => result.code === 0) ? 0 : 1);
