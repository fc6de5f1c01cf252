/**
 * Serves the committed state of a local git repository over git "smart HTTP" on 127.0.0.1,
 * by running git-http-backend as a CGI from a small node:http server.
 * Good enough for `git clone --depth 1` (what SillyTavern's POST /api/extensions/install runs),
 * `git fetch` (its /update) and isomorphic-git (ST's builtin git backend).
 */
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

export interface ServeGitRepositoryOptions {
  /** A git working tree (or repository) whose COMMITTED state is served. */
  sourceDir: string;
  /** Repository name: url = http://127.0.0.1:PORT/<name>.git (ST uses it as the extension folder). */
  name: string;
  /** Commit-ish to serve. Default 'HEAD'. */
  ref?: string;
  /** Branch name the commit is served as (it is also the remote HEAD). Default 'main'. */
  branch?: string;
}

export interface GitRepositoryServer {
  url: string;
  port: number;
  /** Path of the served bare repository. */
  bareDir: string;
  /** Every request received: method + path + query. */
  requests: Array<{ method: string; path: string }>;
  /** Re-point the served branch at another commit of sourceDir (e.g. after a new commit there). */
  update(ref?: string): Promise<void>;
  close(): Promise<void>;
}

async function git(args: string[], cwd?: string): Promise<string> {
  try {
    const { stdout } = await execFileAsync('git', ['-c', 'safe.directory=*', ...args], {
      cwd,
      env: { ...process.env, GIT_TERMINAL_PROMPT: '0' },
      maxBuffer: 16 * 1024 * 1024,
    });
    return stdout.trim();
  } catch (err) {
    const e = err as { stderr?: string; message: string };
    throw new Error(`git ${args.join(' ')} failed: ${e.stderr?.trim() || e.message}`);
  }
}

async function findHttpBackend(): Promise<string> {
  const fixed = '/usr/lib/git-core/git-http-backend';
  if (fs.existsSync(fixed)) return fixed;
  const execPath = await git(['--exec-path']);
  const candidate = path.join(execPath, 'git-http-backend');
  if (fs.existsSync(candidate)) return candidate;
  throw new Error('git-http-backend not found (install git)');
}

export async function serveGitRepository(opts: ServeGitRepositoryOptions): Promise<GitRepositoryServer> {
  const { name } = opts;
  if (!/^[A-Za-z0-9._-]+$/.test(name) || name.endsWith('.git')) {
    throw new Error(`serveGitRepository: invalid name ${JSON.stringify(name)} (use [A-Za-z0-9._-], without .git)`);
  }
  const sourceDir = path.resolve(opts.sourceDir);
  const branch = opts.branch ?? 'main';
  const backend = await findHttpBackend();

  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'st-e2e-git-'));
  const bareDir = path.join(root, `${name}.git`);

  const pointAt = async (ref: string) => {
    // Resolve in the source (read-only), then fetch that commit into the bare repo; the source is not modified.
    const sha = await git(['rev-parse', '--verify', `${ref}^{commit}`], sourceDir);
    await git(['--git-dir', bareDir, 'fetch', '--quiet', '--no-tags', '--force', sourceDir, `+${sha}:refs/heads/${branch}`]);
  };

  try {
    await git(['init', '--quiet', '--bare', `--initial-branch=${branch}`, bareDir]);
    await pointAt(opts.ref ?? 'HEAD');
    await git(['--git-dir', bareDir, 'symbolic-ref', 'HEAD', `refs/heads/${branch}`]);
  } catch (err) {
    fs.rmSync(root, { recursive: true, force: true });
    throw err;
  }

  const requests: Array<{ method: string; path: string }> = [];
  const prefix = `/${name}.git/`;

  const server = http.createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://127.0.0.1');
    const method = req.method ?? 'GET';
    requests.push({ method, path: u.pathname + u.search });

    let pathInfo: string;
    try {
      pathInfo = decodeURIComponent(u.pathname);
    } catch {
      pathInfo = '';
    }
    if (!pathInfo.startsWith(prefix) || pathInfo.includes('..')) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found\n');
      req.resume();
      return;
    }

    const h = req.headers;
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: process.env.HOME ?? os.homedir(),
      GIT_PROJECT_ROOT: root,
      GIT_HTTP_EXPORT_ALL: '1',
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: 'safe.directory',
      GIT_CONFIG_VALUE_0: '*',
      GATEWAY_INTERFACE: 'CGI/1.1',
      SERVER_PROTOCOL: `HTTP/${req.httpVersion}`,
      SERVER_SOFTWARE: 'st-e2e-git-server',
      REQUEST_METHOD: method,
      PATH_INFO: pathInfo,
      QUERY_STRING: u.search.startsWith('?') ? u.search.slice(1) : u.search,
      REMOTE_ADDR: req.socket.remoteAddress ?? '127.0.0.1',
      CONTENT_TYPE: h['content-type'] ?? '',
    };
    if (h['content-length'] !== undefined) env.CONTENT_LENGTH = h['content-length'];
    // git-http-backend un-gzips the body itself when told the encoding.
    if (h['content-encoding'] !== undefined) env.HTTP_CONTENT_ENCODING = String(h['content-encoding']);
    const gitProtocol = h['git-protocol'];
    if (gitProtocol !== undefined) env.HTTP_GIT_PROTOCOL = Array.isArray(gitProtocol) ? gitProtocol.join(':') : gitProtocol;

    const child = spawn(backend, [], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (d: string) => {
      stderr += d;
    });
    child.stdin.on('error', () => undefined);
    req.pipe(child.stdin);

    let headerBuf = Buffer.alloc(0);
    let headersDone = false;
    child.stdout.on('data', (chunk: Buffer) => {
      if (headersDone) {
        res.write(chunk);
        return;
      }
      headerBuf = Buffer.concat([headerBuf, chunk]);
      let end = headerBuf.indexOf('\r\n\r\n');
      let sepLen = 4;
      const lfEnd = headerBuf.indexOf('\n\n');
      if (lfEnd !== -1 && (end === -1 || lfEnd < end)) {
        end = lfEnd;
        sepLen = 2;
      }
      if (end === -1) return;
      headersDone = true;
      const head = headerBuf.subarray(0, end).toString('latin1');
      const rest = headerBuf.subarray(end + sepLen);
      let status = 200;
      let statusMessage: string | undefined;
      for (const line of head.split(/\r?\n/)) {
        const i = line.indexOf(':');
        if (i <= 0) continue;
        const key = line.slice(0, i).trim();
        const value = line.slice(i + 1).trim();
        if (key.toLowerCase() === 'status') {
          const m = /^(\d{3})\s*(.*)$/.exec(value);
          if (m) {
            status = Number(m[1]);
            statusMessage = m[2] || undefined;
          }
          continue;
        }
        const prev = res.getHeader(key);
        if (prev === undefined) res.setHeader(key, value);
        else res.setHeader(key, [...(Array.isArray(prev) ? prev : [String(prev)]), value]);
      }
      res.statusCode = status;
      if (statusMessage) res.statusMessage = statusMessage;
      if (rest.length) res.write(rest);
    });

    child.on('error', (err) => {
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain' });
      res.end(`git-http-backend failed: ${err.message}\n`);
    });
    child.on('close', (code) => {
      if (!headersDone) {
        if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain' });
        res.end(`git-http-backend exited with ${code}: ${stderr}\n`);
        return;
      }
      res.end();
    });
    res.on('close', () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('git server: no address');
  const port = address.port;

  let closed: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}/${name}.git`,
    port,
    bareDir,
    requests,
    update: (ref = 'HEAD') => pointAt(ref),
    close: () => {
      closed ??= (async () => {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        await fs.promises.rm(root, { recursive: true, force: true });
      })();
      return closed;
    },
  };
}
