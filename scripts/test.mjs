// Runs every test: unit tests (node), then the end-to-end tests in real SillyTavern and Chromium.
// `npm test -- unit` or `npm test -- e2e` runs one layer; extra paths run just those files.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, readdirSync, statSync } from 'node:fs';
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
const files = explicit.length
    ? explicit
    : (layers.length ? layers : ['unit', 'e2e']).flatMap((layer) => testFiles(path.join(root, 'tests', layer)));

// Only a run with end-to-end files needs the browser; the harness reads the path from CHROMIUM_PATH.
const env = { ...process.env };
const e2eDir = path.join(root, 'tests', 'e2e') + path.sep;
if (files.some((file) => path.resolve(root, file).startsWith(e2eDir))) env.CHROMIUM_PATH = findChromium();

// E2E files each start their own SillyTavern. One file keeps about 0.4 of a core busy (measured: 37 s of CPU
// in 87 s for skills-cards.test.ts), the rest is waiting on the browser and the server: three at a time fill
// 2 cores without starving any, and keep the suite well under CI's 30 minutes.
const result = spawnSync(
    process.execPath,
    // A file that hangs (a browser gone from under a wait without a bound) fails after 20 minutes instead of
    // holding the suite forever. Node 20 bounds each file's process with this, not each test in it: the longest
    // file takes about 6 minutes on CI's loaded cores.
    ['--import', 'tsx', '--test', '--test-concurrency=3', '--test-timeout=1200000', '--test-reporter=spec', ...files],
    { cwd: root, stdio: 'inherit', env },
);
process.exit(result.status ?? 1);
