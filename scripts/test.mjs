// Runs every test: unit tests (node), then the end-to-end tests in real SillyTavern and Chromium.
// `npm test -- unit` or `npm test -- e2e` runs one layer; extra paths run just those files.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DEBIAN_CHROMIUM = '/usr/bin/chromium';

function testFiles(dir) {
    return readdirSync(dir)
        .sort()
        .flatMap((name) => {
            const full = path.join(dir, name);
            if (statSync(full).isDirectory()) return testFiles(full);
            return name.endsWith('.test.ts') ? [path.relative(root, full)] : [];
        });
}

function isExecutable(file) {
    try {
        accessSync(file, constants.X_OK);
        return statSync(file).isFile();
    } catch {
        return false;
    }
}

function stop(line) {
    console.error(`npm test: ${line}`);
    process.exit(1);
}

/**
 * The browser the e2e tests drive: $CHROMIUM_PATH, else Debian's /usr/bin/chromium, else (as root) Debian's
 * `chromium` package installed now. Playwright never downloads a browser of its own here.
 */
function findChromium() {
    const chosen = process.env.CHROMIUM_PATH;
    if (chosen) {
        if (isExecutable(chosen)) return chosen;
        stop(`CHROMIUM_PATH=${chosen} is not an executable file; point it at a Chromium binary or unset it.`);
    }
    if (isExecutable(DEBIAN_CHROMIUM)) return DEBIAN_CHROMIUM;
    if (process.getuid?.() === 0) {
        console.log(`npm test: no Chromium at ${DEBIAN_CHROMIUM}; installing Debian's chromium with apt-get (once).`);
        const apt = spawnSync('sh', ['-c', 'apt-get update -qq && apt-get install -y -qq chromium'], {
            stdio: ['ignore', 'ignore', 'inherit'],
            env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
        });
        if (apt.status === 0 && isExecutable(DEBIAN_CHROMIUM)) return DEBIAN_CHROMIUM;
        stop(`installing chromium with apt-get failed; run "apt-get update && apt-get install -y chromium", or set CHROMIUM_PATH.`);
    }
    stop(`the end-to-end tests need Chromium: run "sudo apt-get install -y chromium" (Debian/Ubuntu), or set CHROMIUM_PATH to a Chromium binary.`);
}

const args = process.argv.slice(2);
const layers = args.filter((a) => ['unit', 'e2e'].includes(a));
const explicit = args.filter((a) => a.endsWith('.ts'));
/**
 * The end-to-end files that take longest (each over a minute and a half of one slot, measured on a full run),
 * longest first. Two files run at a time: started last, one of them would run on alone while the other slot
 * idles, so they start first, the rest of the e2e files follow, and the unit files (many and short) fill the
 * gaps at the end.
 */
const LONGEST_FIRST = [
    'tests/e2e/panel-surface.test.ts',
    'tests/e2e/timeline.test.ts',
    'tests/e2e/profiles-ui.test.ts',
    'tests/e2e/run-lifecycle.test.ts',
    'tests/e2e/skills.test.ts',
    'tests/e2e/memory.test.ts',
    'tests/e2e/resume.test.ts',
    'tests/e2e/native-stream-api.test.ts',
    'tests/e2e/subagents.test.ts',
    'tests/e2e/providers.test.ts',
    'tests/e2e/pipeline.test.ts',
];

// A stale entry would silently order nothing: say so instead.
const missing = LONGEST_FIRST.filter((file) => !existsSync(path.join(root, file)));
if (missing.length) stop(`LONGEST_FIRST in scripts/test.mjs names files that do not exist: ${missing.join(', ')}`);

function packed(list) {
    const rank = (file) => {
        const at = LONGEST_FIRST.indexOf(file);
        if (at >= 0) return at;
        return file.startsWith('tests/e2e/') ? LONGEST_FIRST.length : LONGEST_FIRST.length + 1;
    };
    // Array.prototype.sort is stable: within a rank the files keep their alphabetical order.
    return [...list].sort((a, b) => rank(a) - rank(b));
}

const files = explicit.length
    ? explicit
    : packed((layers.length ? layers : ['unit', 'e2e']).flatMap((layer) => testFiles(path.join(root, 'tests', layer))));

// Only a run with end-to-end files needs the browser; the harness reads the path from CHROMIUM_PATH.
const env = { ...process.env };
const e2eDir = path.join(root, 'tests', 'e2e') + path.sep;
if (files.some((file) => path.resolve(root, file).startsWith(e2eDir))) env.CHROMIUM_PATH = findChromium();

// E2E files each start their own SillyTavern; two at a time fits 2 cores and keeps the suite short.
const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-reporter=spec', ...files],
    { cwd: root, stdio: 'inherit', env },
);
process.exit(result.status ?? 1);
