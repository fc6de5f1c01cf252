/**
 * Headless Chromium (Debian's /usr/bin/chromium through playwright-core) driving a real SillyTavern page.
 *
 * NOTE for page.evaluate / waitForFunction callbacks in this file: tsx compiles with esbuild `keepNames`,
 * which wraps NAMED inner functions (`const f = () => ...`, `function f() {}`) in a `__name(...)` helper
 * that does not exist in the page. Keep callbacks free of named inner functions (inline expressions and
 * anonymous arrows passed as arguments are fine).
 */
import { accessSync, constants } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/** The browser `npm test` found or installed (scripts/test.mjs sets CHROMIUM_PATH), else Debian's. */
export const CHROMIUM_EXECUTABLE = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

export const CHROMIUM_ARGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

/** Timeout for page load → APP_READY → connected; generous, as a loaded 2-core machine has needed over 45 s. */
const READY_TIMEOUT_MS = 90_000;
/** Timeout for one chat turn. */
const TURN_TIMEOUT_MS = 30_000;

/** Where pages get their contexts: a Playwright Browser, or the bench's Chromium with storage on disk. */
export type ContextSource = Pick<Browser, 'newContext'>;

export function launchBrowser(opts: { headless?: boolean } = {}): Promise<Browser> {
  try {
    accessSync(CHROMIUM_EXECUTABLE, constants.X_OK);
  } catch {
    // Run directly with `node --test`, nothing looked for the browser: say how to get one.
    return Promise.reject(
      new Error(`No Chromium at ${CHROMIUM_EXECUTABLE}: run the tests with \`npm test\` (it finds or installs Debian's chromium), or set CHROMIUM_PATH.`),
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM_EXECUTABLE,
    headless: opts.headless ?? true,
    args: [...CHROMIUM_ARGS],
  });
}

export interface StPage {
  page: Page;
  /** Text of every console message of type 'error' (accumulates across reloads). */
  consoleErrors: string[];
  /** Every uncaught page error (accumulates across reloads). */
  pageErrors: string[];
  /** The fresh browser context the page lives in (fresh IndexedDB/localStorage); close it to drop the page. */
  context: BrowserContext;
}

function describe(stPage: Pick<StPage, 'consoleErrors' | 'pageErrors'>): string {
  const lines = [
    ...stPage.pageErrors.slice(-10).map((e) => `  pageerror: ${e}`),
    ...stPage.consoleErrors.slice(-10).map((e) => `  console.error: ${e}`),
  ];
  return lines.length ? `\n${lines.join('\n')}` : '';
}

/** Waits for SillyTavern's getContext, APP_READY and an API connection (onlineStatus !== 'no_connection'). */
export async function waitForSillyTavernReady(page: Page, timeout = READY_TIMEOUT_MS): Promise<void> {
  await page.waitForFunction(() => typeof (globalThis as any).SillyTavern?.getContext === 'function', undefined, { timeout });
  // APP_READY is an auto-fire event: a listener added after it fired runs at once.
  await page.evaluate(
    (ms) =>
      new Promise<void>((resolve, reject) => {
        const ctx = (globalThis as any).SillyTavern.getContext();
        const timer = setTimeout(() => reject(new Error(`APP_READY did not fire within ${ms} ms`)), ms);
        ctx.eventSource.on(ctx.eventTypes.APP_READY, () => {
          clearTimeout(timer);
          resolve();
        });
      }),
    timeout,
  );
  await page.waitForFunction(() => (globalThis as any).SillyTavern.getContext().onlineStatus !== 'no_connection', undefined, {
    timeout,
  });
}

export const DEFAULT_VIEWPORT = { width: 1280, height: 900 } as const;

export async function openSillyTavern(
  browser: ContextSource,
  url: string,
  opts: { viewport?: { width: number; height: number } } = {},
): Promise<StPage> {
  const context = await browser.newContext({ viewport: opts.viewport ?? DEFAULT_VIEWPORT });
  return loadSillyTavern(await context.newPage(), url);
}

/** Each page's last load, so a test given a page to reuse still reads the errors it collects. */
const loadedPages = new WeakMap<Page, StPage>();

/** The errors collected on `page` since SillyTavern was last loaded into it (see loadSillyTavern). */
export function stPageOf(page: Page): StPage {
  const stPage = loadedPages.get(page);
  if (!stPage) throw new Error('stPageOf: this page was not opened by loadSillyTavern');
  return stPage;
}

/**
 * Loads SillyTavern's page into `page` (a new one, or one handed back for the next open) and waits until it is
 * ready and connected; its console errors and page errors are collected from here on. On failure the page's
 * context is closed.
 */
export async function loadSillyTavern(page: Page, url: string): Promise<StPage> {
  const context = page.context();
  const stPage: StPage = { page, consoleErrors: [], pageErrors: [], context };
  loadedPages.set(page, stPage);
  page.on('console', (msg) => {
    if (msg.type() === 'error') stPage.consoleErrors.push(msg.text());
  });
  page.on('pageerror', (err) => {
    stPage.pageErrors.push(err.stack || err.message);
  });
  try {
    await page.goto(`${url.replace(/\/+$/, '')}/`, { waitUntil: 'domcontentloaded' });
    await waitForSillyTavernReady(page);
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    await context.close().catch(() => undefined);
    throw new Error(`openSillyTavern(${url}) failed: ${msg}${describe(stPage)}`);
  }
  return stPage;
}

/** Reloads the page and waits for SillyTavern to be ready and connected again (loads newly installed extensions). */
export async function reloadPage(stPage: StPage): Promise<void> {
  try {
    await stPage.page.reload({ waitUntil: 'domcontentloaded' });
    await waitForSillyTavernReady(stPage.page);
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    throw new Error(`reloadPage failed: ${msg}${describe(stPage)}`);
  }
}

/** Opens a character's chat programmatically and waits for its greeting. */
export async function openCharacter(page: Page, avatar = 'default_Seraphina.png'): Promise<void> {
  const found = await page.evaluate(async (av) => {
    const ctx = (globalThis as any).SillyTavern.getContext();
    const index = ctx.characters.findIndex((c: { avatar: string }) => c.avatar === av);
    if (index < 0) return ctx.characters.map((c: { avatar: string }) => c.avatar) as string[];
    await ctx.selectCharacterById(index);
    return true;
  }, avatar);
  if (found !== true) {
    throw new Error(`openCharacter: no character with avatar ${avatar}; have: ${found.join(', ') || '(none)'}`);
  }
  await page.waitForFunction(
    (av) => {
      const ctx = (globalThis as any).SillyTavern.getContext();
      return ctx.characterId !== undefined && ctx.characters[ctx.characterId]?.avatar === av && ctx.chat.length >= 1;
    },
    avatar,
    { timeout: READY_TIMEOUT_MS },
  );
  await page.locator('#chat .mes[is_user="false"]').first().waitFor({ state: 'visible', timeout: READY_TIMEOUT_MS });
}

/**
 * Types `text` into #send_textarea, clicks #send_but and waits until the generation has finished:
 * the user's message is in #chat, #mes_stop is hidden, #send_but is shown again and body[data-generating] is gone.
 */
export async function sendMessage(page: Page, text: string): Promise<void> {
  const before = await page.locator('#chat .mes').count();
  await page.fill('#send_textarea', text);
  await page.click('#send_but', { timeout: TURN_TIMEOUT_MS });
  // Generate() clears the textarea and sets body[data-generating] before it appends the user's message.
  await page.waitForFunction(
    (n) => document.querySelectorAll('#chat .mes').length > n && (document.querySelector('#send_textarea') as HTMLTextAreaElement | null)?.value === '',
    before,
    { timeout: TURN_TIMEOUT_MS },
  );
  await page.waitForFunction(
    () => {
      const stop = document.querySelector('#mes_stop');
      const send = document.querySelector('#send_but');
      return (
        document.body.dataset.generating === undefined &&
        !!stop &&
        getComputedStyle(stop).display === 'none' &&
        !!send &&
        !send.classList.contains('displayNone')
      );
    },
    undefined,
    { timeout: TURN_TIMEOUT_MS, polling: 100 },
  );
}

/** Text of the last bot message (`#chat .mes[is_user="false"]` → `.mes_text`). */
export async function lastBotMessageText(page: Page): Promise<string> {
  return (await page.locator('#chat .mes[is_user="false"] .mes_text').last().innerText()).trim();
}

export interface InstalledExtension {
  /** Folder under <data>/default-user/extensions/ (ST: sanitized basename of the URL path, without .git). */
  folder: string;
  /** `third-party/<folder>`: ST's extension name (manifests, disabledExtensions, hooks). */
  name: string;
  displayName?: string;
  version?: string;
  author?: string;
  extensionPath: string;
}

/**
 * Installs an extension "just for me" through POST /api/extensions/install (ST runs `git clone --depth 1`),
 * with the page's own request headers (CSRF token). The extension is NOT loaded into the running page by this
 * call alone: either `reloadPage()` afterwards, or pass `activate: true` to do what ST's own UI does after an
 * install (`loadExtensionSettings({}, false, false)` + EXTENSION_SETTINGS_LOADED; the manifest `install` hook is
 * not called then).
 * On failure throws with ST's HTTP status and response text (for a clone or manifest failure ST only answers
 * "Internal Server Error. Check the server logs..."; pass `serverLog` (e.g. `st.logTail`) to include the log).
 */
export async function installExtensionFromGit(
  page: Page,
  gitUrl: string,
  opts: { branch?: string; activate?: boolean; serverLog?: (lines?: number) => string } = {},
): Promise<InstalledExtension> {
  const result = await page.evaluate(
    async ({ url, branch }) => {
      const ctx = (globalThis as any).SillyTavern.getContext();
      const res = await fetch('/api/extensions/install', {
        method: 'POST',
        headers: ctx.getRequestHeaders(),
        body: JSON.stringify({ url, global: false, branch: branch ?? '' }),
      });
      return { ok: res.ok, status: res.status, statusText: res.statusText, text: await res.text() };
    },
    { url: gitUrl, branch: opts.branch },
  );
  if (!result.ok) {
    const log = opts.serverLog && result.status >= 500 ? `\nSillyTavern log tail:\n${opts.serverLog(30)}` : '';
    throw new Error(
      `installExtensionFromGit(${gitUrl}) failed: HTTP ${result.status} ${result.statusText}: ${result.text.trim() || '(empty)'}${log}`,
    );
  }
  let body: { folderName?: string; extensionPath?: string; display_name?: string; version?: string; author?: string };
  try {
    body = JSON.parse(result.text);
  } catch {
    throw new Error(`installExtensionFromGit(${gitUrl}): unexpected response ${result.text.slice(0, 300)}`);
  }
  if (!body.folderName || !body.extensionPath) {
    throw new Error(`installExtensionFromGit(${gitUrl}): response without folderName: ${result.text.slice(0, 300)}`);
  }
  if (opts.activate) {
    await page.evaluate(async (response) => {
      const ctx = (globalThis as any).SillyTavern.getContext();
      const extensions = await import(/* webpackIgnore: true */ '/scripts/extensions.js' as string);
      await extensions.loadExtensionSettings({}, false, false);
      await ctx.eventSource.emit(ctx.eventTypes.EXTENSION_SETTINGS_LOADED, response);
    }, body);
  }
  const out: InstalledExtension = {
    folder: body.folderName,
    name: `third-party/${body.folderName}`,
    extensionPath: body.extensionPath,
  };
  if (body.display_name !== undefined) out.displayName = body.display_name;
  if (body.version !== undefined) out.version = body.version;
  if (body.author !== undefined) out.author = body.author;
  return out;
}

/** SillyTavern's settings saved now, not debounced: the browser context may close right after. */
export async function saveSettingsNow(page: Page): Promise<void> {
  await page.evaluate(async () => {
    const script = (await import(/* @vite-ignore */ '/script.js' as string)) as { saveSettings(): Promise<void> };
    await script.saveSettings();
  });
}
