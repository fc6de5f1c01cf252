/**
 * One SillyTavern at a time compiles its frontend libraries.
 *
 * The first start of SillyTavern after a clone or a commit compiles its frontend libraries with webpack
 * before it listens (31.5 s of CPU here): its cache version includes the git revision it reads, and
 * node_modules/sillytavern sits in this repository, so every commit of ours is a new version. In a container
 * every instance shares that cache and the compiled lib.js (node_modules/sillytavern/dist), and the test
 * files that started together each compiled them, into the same folder, three at once on 2 cores. So the
 * first start of a revision holds a lock until its SillyTavern answers; the others wait for it, then start
 * on the warm cache.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const POLL_MS = 500;

/** The revision SillyTavern's cache version reads: the HEAD of the git work tree around its folder, if any. */
function gitRevision(stDir: string): string {
    try {
        return execFileSync('git', ['rev-parse', 'HEAD'], { cwd: stDir, stdio: ['ignore', 'pipe', 'ignore'], timeout: 10_000 }).toString().trim();
    } catch {
        return 'no-git';
    }
}

function isAlive(pid: number): boolean {
    if (!Number.isInteger(pid) || pid <= 0) return false;
    try {
        process.kill(pid, 0);
        return true;
    } catch (error) {
        // EPERM: it exists, owned by someone else.
        return (error as NodeJS.ErrnoException).code === 'EPERM';
    }
}

function delay(ms: number): Promise<void> {
    return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Waits until this SillyTavern (`stDir`, `version`) at this revision has started once, or until this process
 * may be the one to start it first. Returns what to call once the start is over: `true` if SillyTavern
 * answered (later starts then skip the wait). Gives up waiting after `timeoutMs` and starts anyway.
 */
export async function firstStartGate(
    stDir: string,
    version: string,
    timeoutMs: number,
    /** Where the lock and the marker live; one folder for every test process of the machine. */
    dir = path.join(os.tmpdir(), 'st-e2e-first-start'),
): Promise<(answered: boolean) => void> {
    const key = createHash('sha256').update(JSON.stringify([stDir, version, gitRevision(stDir)])).digest('hex').slice(0, 16);
    const done = path.join(dir, `${key}.done`);
    const lock = path.join(dir, `${key}.lock`);
    const nothing = () => undefined;
    try {
        fs.mkdirSync(dir, { recursive: true });
    } catch {
        return nothing;
    }
    const started = Date.now();
    for (;;) {
        if (fs.existsSync(done)) return nothing;
        try {
            fs.writeFileSync(lock, String(process.pid), { flag: 'wx' });
            return (answered) => {
                if (answered) fs.writeFileSync(done, '');
                fs.rmSync(lock, { force: true });
            };
        } catch (error) {
            if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return nothing;
        }
        // Another process is starting it. A holder that died without releasing leaves its lock behind.
        let holder = '';
        try {
            holder = fs.readFileSync(lock, 'utf8');
        } catch {
            continue; // released just now
        }
        // An empty lock is one being written this moment.
        if (holder !== '' && !isAlive(Number(holder))) {
            fs.rmSync(lock, { force: true });
            continue;
        }
        if (Date.now() - started > timeoutMs) return nothing;
        await delay(POLL_MS);
    }
}
