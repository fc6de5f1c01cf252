import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

const TYPES: Record<string, string> = {
    '.html': 'text/html; charset=utf-8',
    '.js': 'application/javascript; charset=utf-8',
    '.map': 'application/json',
    '.css': 'text/css',
};

/** Serves one folder on 127.0.0.1 (a free port), for the bench pages. */
export async function serveFolder(root: string): Promise<{ url: string; close(): Promise<void> }> {
    const server = http.createServer((req, res) => {
        const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://127.0.0.1').pathname);
        const file = path.join(root, pathname === '/' ? 'index.html' : pathname);
        if (!file.startsWith(root) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
            res.writeHead(404).end('not found');
            return;
        }
        res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
        fs.createReadStream(file).pipe(res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        close: () =>
            new Promise<void>((resolve) => {
                server.close(() => resolve());
                server.closeAllConnections();
            }),
    };
}
