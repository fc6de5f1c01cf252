/**
 * Smoke test of the e2e harness: real SillyTavern + headless Chromium + an inline mock OpenAI server +
 * an extension installed through ST's own /api/extensions/install from a local git smart-HTTP server.
 *
 * Run: node --import tsx --test tests/e2e/harness.test.ts
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import type { Browser } from 'playwright-core';
import {
  installExtensionFromGit,
  lastBotMessageText,
  launchBrowser,
  openCharacter,
  openSillyTavern,
  reloadPage,
  sendMessage,
  type StPage,
} from '../harness/browser';
import { serveGitRepository, type GitRepositoryServer } from '../harness/git-server';
import { closePage } from '../harness/recycled-pages';
import { startSillyTavern, type SillyTavernServer } from '../harness/st-server';
import { startTavernSession } from '../harness/tavern';

const execFileAsync = promisify(execFile);
const EXT_NAME = 'harness-smoke-ext';
const REPLY = 'HELLO_FROM_MOCK';

interface MockModel {
  url: string;
  requests: Array<{ method: string; path: string; body: any }>;
  close(): Promise<void>;
}

/** A trivial OpenAI-compatible mock: GET /v1/models, POST /v1/chat/completions (non-streaming). */
async function startMockModel(): Promise<MockModel> {
  const requests: MockModel['requests'] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: any = null;
      try {
        body = raw ? JSON.parse(raw) : null;
      } catch {
        body = raw;
      }
      const p = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
      requests.push({ method: req.method ?? '', path: p, body });
      const send = (status: number, payload: unknown) => {
        res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(payload));
      };
      if (req.method === 'GET' && p === '/v1/models') {
        send(200, { object: 'list', data: [{ id: 'mock-model', object: 'model', owned_by: 'e2e' }] });
      } else if (req.method === 'POST' && p === '/v1/chat/completions') {
        send(200, {
          id: `chatcmpl-${requests.length}`,
          object: 'chat.completion',
          created: Math.floor(Date.now() / 1000),
          model: body?.model ?? 'mock-model',
          choices: [{ index: 0, message: { role: 'assistant', content: REPLY }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
        });
      } else {
        send(404, { error: { message: `mock: no route ${req.method} ${p}` } });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('mock: no address');
  return {
    url: `http://127.0.0.1:${address.port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A throw-away extension, committed in a fresh git repo. */
async function makeExtensionRepo(): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'st-e2e-ext-'));
  fs.writeFileSync(
    path.join(dir, 'manifest.json'),
    JSON.stringify(
      { display_name: 'Harness Smoke', loading_order: 100, requires: [], optional: [], js: 'index.js', author: 'e2e', version: '0.0.1', auto_update: false },
      null,
      2,
    ),
  );
  fs.writeFileSync(path.join(dir, 'index.js'), "globalThis.__harnessSmoke = 'loaded';\n");
  const git = (...args: string[]) =>
    execFileAsync('git', ['-c', 'user.name=e2e', '-c', 'user.email=e2e@example.invalid', '-c', 'commit.gpgsign=false', ...args], { cwd: dir });
  await git('init', '--quiet', '--initial-branch=main');
  await git('add', '.');
  await git('commit', '--quiet', '-m', 'harness smoke extension');
  return dir;
}

let mock: MockModel | undefined;
let extDir: string | undefined;
let gitServer: GitRepositoryServer | undefined;
let st: SillyTavernServer | undefined;
let browser: Browser | undefined;
let stPage: StPage | undefined;

function diagnostics(): string {
  return [
    stPage ? `pageErrors: ${JSON.stringify(stPage.pageErrors)}\nconsoleErrors: ${JSON.stringify(stPage.consoleErrors)}` : '',
    st ? `ST log tail:\n${st.logTail(30)}` : '',
  ].join('\n');
}

before(async () => {
  const t0 = Date.now();
  mock = await startMockModel();
  extDir = await makeExtensionRepo();
  gitServer = await serveGitRepository({ sourceDir: extDir, name: EXT_NAME });
  const [server, b] = await Promise.all([startSillyTavern({ modelUrl: mock.url }), launchBrowser()]);
  st = server;
  browser = b;
  const t1 = Date.now();
  stPage = await openSillyTavern(browser, st.url);
  console.log(`# timings: ST+browser ready ${t1 - t0} ms, page ready ${Date.now() - t1} ms`);
});

after(async () => {
  await stPage?.context.close().catch(() => undefined);
  await browser?.close().catch(() => undefined);
  await st?.stop();
  await gitServer?.close();
  await mock?.close();
  if (extDir) fs.rmSync(extDir, { recursive: true, force: true });
});

test('ST connected to the mock on load', () => {
  assert.ok(mock);
  assert.ok(
    mock.requests.some((r) => r.method === 'GET' && r.path === '/v1/models'),
    `mock never got GET /v1/models: ${JSON.stringify(mock.requests.map((r) => `${r.method} ${r.path}`))}`,
  );
});

test('extension installs from the git server and loads after a reload', async () => {
  assert.ok(stPage && st && gitServer);
  const { page } = stPage;
  const t0 = Date.now();
  const installed = await installExtensionFromGit(page, gitServer.url, { serverLog: st.logTail });
  const t1 = Date.now();
  assert.equal(installed.folder, EXT_NAME);
  assert.equal(installed.displayName, 'Harness Smoke');
  assert.ok(fs.existsSync(path.join(st.userDir, 'extensions', EXT_NAME, 'index.js')), 'cloned into the user extensions folder');
  assert.ok(gitServer.requests.some((r) => r.path.endsWith('/git-upload-pack')), 'ST fetched over smart HTTP');

  // Not loaded into the running page by the bare API call.
  assert.equal(await page.evaluate(() => (globalThis as any).__harnessSmoke), undefined);

  await reloadPage(stPage);
  console.log(`# timings: install ${t1 - t0} ms, reload ${Date.now() - t1} ms`);
  assert.equal(await page.evaluate(() => (globalThis as any).__harnessSmoke), 'loaded', diagnostics());
});

test('a chat turn with Seraphina renders the mock reply', async () => {
  assert.ok(stPage && mock);
  const { page } = stPage;
  const t0 = Date.now();
  await openCharacter(page);
  const t1 = Date.now();
  const completionsBefore = mock.requests.filter((r) => r.path === '/v1/chat/completions').length;
  await sendMessage(page, 'Hello from the harness smoke test');
  console.log(`# timings: open character ${t1 - t0} ms, chat turn ${Date.now() - t1} ms`);

  const completions = mock.requests.filter((r) => r.path === '/v1/chat/completions');
  assert.equal(completions.length, completionsBefore + 1, 'exactly one completion request');
  const last = completions.at(-1)?.body;
  assert.equal(last?.model, 'mock-model');
  assert.equal(last?.stream, false);
  assert.match(JSON.stringify(last?.messages?.at(-1)), /Hello from the harness smoke test/);

  assert.equal(await lastBotMessageText(page), REPLY, diagnostics());
  assert.deepEqual(stPage.pageErrors, [], diagnostics());
});

// The suite's tests rely on `session.open()` giving fresh storage; a handed-back page must give it too.
test('a page handed back with closePage opens again as the same page, at the new size, with none of its storage', async () => {
  const session = await startTavernSession({ link: false });
  try {
    const first = await session.open();
    await first.page.evaluate(
      () =>
        new Promise<void>((resolve, reject) => {
          localStorage.setItem('recycle-probe', 'local');
          sessionStorage.setItem('recycle-probe', 'session');
          document.cookie = 'recycleprobe=1; path=/';
          const request = indexedDB.open('recycle-probe');
          request.onupgradeneeded = () => request.result.createObjectStore('s');
          request.onsuccess = () => {
            request.result.close();
            resolve();
          };
          request.onerror = () => reject(request.error);
        }),
    );
    let dialogs = 0;
    first.page.on('dialog', () => dialogs++);
    await closePage(first.page);

    const second = await session.open({ width: 390, height: 844 });
    assert.equal(second.page, first.page, 'the same page, loaded again');
    const left = await second.page.evaluate(async () => ({
      local: localStorage.getItem('recycle-probe'),
      session: sessionStorage.getItem('recycle-probe'),
      cookie: document.cookie.includes('recycleprobe'),
      database: (await indexedDB.databases()).some((database) => database.name === 'recycle-probe'),
      width: innerWidth,
    }));
    assert.deepEqual(left, { local: null, session: null, cookie: false, database: false, width: 390 });
    // A listener the last test left is gone with it: this alert is dismissed by Playwright, not counted.
    await second.page.evaluate(() => alert('left over?'));
    assert.equal(dialogs, 0);
    assert.deepEqual(second.pageErrors, []);

    // A page with a second tab in its context is closed with it, as before, not kept.
    const tab = await second.context.newPage();
    await closePage(second.page);
    assert.ok(second.page.isClosed() && tab.isClosed(), 'both tabs closed');
    const third = await session.open();
    assert.notEqual(third.page, second.page, 'a new page in a new context');
    await closePage(third.page);
  } finally {
    await session.close();
  }
});
