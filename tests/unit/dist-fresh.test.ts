import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';

/** Every file under `dir`, as paths relative to it (the chunks sit in a folder of their own). */
function filesUnder(dir: string): string[] {
    return (readdirSync(dir, { recursive: true, withFileTypes: true }) as Array<{ isFile(): boolean; parentPath: string; name: string }>)
        .filter((entry) => entry.isFile())
        .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
        .sort();
}
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');

// SillyTavern installs by git clone and never builds: the committed dist/ is what users run.
test('the committed dist/ is byte for byte a fresh build of src/', () => {
    const outdir = mkdtempSync(path.join(tmpdir(), 'tavern-agent-build-'));
    try {
        execFileSync(process.execPath, ['build.mjs', '--outdir', outdir], { cwd: root, stdio: 'pipe' });
        const fresh = filesUnder(outdir);
        assert.deepEqual(fresh.filter((file) => !file.startsWith('chunks/')), ['card-reader.js', 'index.js', 'quickjs.wasm', 'sandbox.js', 'style.css', 'worker.js']);
        assert.ok(fresh.some((file) => /^chunks\/panel-[A-Z0-9]+\.js$/.test(file)), 'the panel is a chunk of its own');
        const committed = execFileSync('git', ['ls-files', 'dist'], { cwd: root, encoding: 'utf8' }).trim().split('\n').map((f) => path.relative('dist', f)).sort();
        assert.deepEqual(committed, fresh, 'dist/ in git holds exactly the built files');
        for (const file of fresh) {
            const built = readFileSync(path.join(outdir, file));
            // In CI (a fresh clone) the work tree is the commit; locally this catches a forgotten rebuild.
            const shipped = readFileSync(path.join(root, 'dist', file));
            assert.ok(built.equals(shipped), `dist/${file} differs from a fresh build: run npm run build and commit dist/`);
        }
    } finally {
        rmSync(outdir, { recursive: true, force: true });
    }
});

test('two builds are identical', () => {
    const dirs = [0, 1].map(() => mkdtempSync(path.join(tmpdir(), 'tavern-agent-build-')));
    try {
        for (const dir of dirs) execFileSync(process.execPath, ['build.mjs', '--outdir', dir], { cwd: root });
        const files = filesUnder(dirs[0]!);
        assert.deepEqual(filesUnder(dirs[1]!), files);
        for (const file of files) {
            assert.ok(readFileSync(path.join(dirs[0]!, file)).equals(readFileSync(path.join(dirs[1]!, file))), file);
        }
    } finally {
        for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    }
});
