/**
 * Where the extension's built files are served from. Only the startup module (dist/index.js) knows it for
 * sure: code in a chunk (dist/chunks/…) would resolve `./worker.js` against the chunk's folder.
 */
let distBase: string | null = null;

/** Called once by src/index.ts with its own `import.meta.url`. */
export function setDistBase(indexUrl: string): void {
    distBase = indexUrl;
}

/** A file of dist/ (`worker.js`), as a URL the page can load. */
export function distFile(name: string): URL {
    if (!distBase) throw new Error('Tavern Agent: dist/ was asked for before src/index.ts named it.');
    return new URL(name, distBase);
}
