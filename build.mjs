// Builds the files SillyTavern loads: dist/index.js (main-thread ES module), dist/worker.js (module worker),
// dist/sandbox.js and dist/quickjs.wasm (the script sandbox's worker and its QuickJS) and dist/style.css. The output is committed (SillyTavern installs by git clone and never builds),
// so the build must be byte-for-byte reproducible: no timestamps, no absolute paths, pinned esbuild.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const outdirIndex = args.indexOf('--outdir');
const outdir = outdirIndex >= 0 ? path.resolve(args[outdirIndex + 1]) : path.join(root, 'dist');
const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));

const shared = {
    absWorkingDir: root,
    bundle: true,
    format: 'esm',
    target: 'es2022',
    // MINIFY=0 keeps names readable in CPU profiles (bench/lib/profile-run.ts); dist/ is always minified.
    minify: process.env.MINIFY !== '0',
    legalComments: 'eof',
    charset: 'utf8',
    logLevel: 'warning',
    define: { __TAVERN_AGENT_VERSION__: JSON.stringify(version) },
    // SillyTavern's own modules are loaded from the page at run time, never bundled.
    external: ['/scripts/*', '/script.js', '/lib.js'],
    // Chunk names hash the modules' paths: a git worktree whose node_modules is a symlink to another checkout
    // would otherwise name node_modules by the link's target and build other chunk names than a plain clone.
    preserveSymlinks: true,
};

// Chunk names carry a content hash: old ones would pile up beside the new ones, so the folder starts empty.
rmSync(path.join(outdir, 'chunks'), { recursive: true, force: true });

// QuickJS's WebAssembly, a file of its own that the sandbox worker loads (src/sandbox/load-quickjs.ts).
mkdirSync(outdir, { recursive: true });
copyFileSync(path.join(root, 'node_modules/@jitl/quickjs-wasmfile-release-sync/dist/emscripten-module.wasm'), path.join(outdir, 'quickjs.wasm'));

await Promise.all([
    build({
        ...shared,
        entryPoints: { index: 'src/index.ts' },
        outdir,
        platform: 'browser',
        jsx: 'automatic',
        jsxImportSource: 'preact',
        // The panel's views load on first open (src/ui/lazy-panel.tsx) as a chunk of their own, in dist/chunks/.
        splitting: true,
        chunkNames: 'chunks/[name]-[hash]',
    }),
    build({ ...shared, entryPoints: { worker: 'src/worker.ts' }, outdir, platform: 'browser' }),
    // The script sandbox (issue 35): a worker of its own, started by the engine when a script first runs.
    build({ ...shared, entryPoints: { sandbox: 'src/sandbox-worker.ts' }, outdir, platform: 'browser' }),
    // The card reader (issue 39 §1): a throwaway worker per card payload, started by the page (host/skills/card-reader.ts).
    build({ ...shared, entryPoints: { 'card-reader': 'src/card-reader-worker.ts' }, outdir, platform: 'browser' }),
    build({ ...shared, entryPoints: { style: 'styles/panel.css' }, outdir }),
]);
