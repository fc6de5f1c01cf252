/**
 * Starts a real SillyTavern (node_modules/$TAVERN_AGENT_ST_PACKAGE, default node_modules/sillytavern) on 127.0.0.1 with a throw-away data root,
 * pre-configured to talk to a local mock model server. See /work/shared/testing/E2E-RECIPE.md.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { firstStartGate } from './first-start-gate';
import { freePort } from './free-port';

export type ModelSource = 'custom' | 'claude' | 'makersuite';

export interface StartSillyTavernOptions {
  /** The mock model's base URL, e.g. http://127.0.0.1:PORT (no /v1). */
  modelUrl: string;
  /** Chat completion source. Default 'custom'. */
  source?: ModelSource;
  /** oai_settings.stream_openai. Default false. */
  streaming?: boolean;
  /** Symlink `dir` into <data>/default-user/extensions/<folder>. */
  linkExtensions?: Array<{ folder: string; dir: string }>;
  /**
   * SillyTavern's own extensions: 'all' as a user has them (the default), or 'lean' without those no test
   * touches (LEAN_DISABLED_EXTENSIONS), which a page load then neither fetches nor starts.
   */
  builtInExtensions?: 'all' | 'lean';
  /** Last word on settings.json before the first start (mutate in place). */
  patchSettings?: (settings: any) => void;
  /** Port for SillyTavern. Default: a free port. */
  port?: number;
  /**
   * A lasting run folder (the `npm start` demo): created if missing, settings written only the first time,
   * kept on stop. Default: a fresh temp folder, removed on stop.
   */
  persistentRunDir?: string;
}

export interface SillyTavernServer {
  url: string;
  port: number;
  runDir: string;
  dataRoot: string;
  userDir: string;
  logPath: string;
  logTail(lines?: number): string;
  stop(): Promise<void>;
}

const HERE = path.dirname(fileURLToPath(import.meta.url));
/**
 * The SillyTavern package the e2e suite runs against: a folder name under node_modules. Default `sillytavern`
 * (1.19); `npm run test:st118` sets `sillytavern-1.18` (the 1.18.0 npm alias) to run the same suite on 1.18.
 */
export const ST_PACKAGE = process.env.TAVERN_AGENT_ST_PACKAGE || 'sillytavern';
/** Absolute path of the SillyTavern package (its server chdirs there). */
export const ST_DIR = path.resolve(HERE, '../../node_modules', ST_PACKAGE);
/** Its version (package.json), e.g. "1.19.0": for messages and cache keys only; tests detect features, not versions. */
export const ST_VERSION: string = (() => {
  try {
    return String(JSON.parse(fs.readFileSync(path.join(ST_DIR, 'package.json'), 'utf8')).version);
  } catch {
    return 'missing'; // startSillyTavern says what to do
  }
})();

/** The first of `ids` that this SillyTavern's page lists as a model option (its lists differ per version). */
function listedModel(ids: string[]): string {
  let html = '';
  try {
    html = fs.readFileSync(path.join(ST_DIR, 'public/index.html'), 'utf8');
  } catch {
    /* startSillyTavern reports a missing package */
  }
  return ids.find((id) => html.includes(`<option value="${id}"`)) ?? ids[ids.length - 1]!;
}

/** Model ids written into settings.json per source. */
export const MOCK_MODEL_IDS: Record<ModelSource, string> = {
  custom: 'mock-model',
  // Claude: ST resets an id that is not in #model_claude_select to its default, so use a listed one
  // (1.19 lists claude-sonnet-5, 1.18 does not).
  claude: listedModel(['claude-sonnet-5', 'claude-sonnet-4-5']),
  // Google: ST keeps the id if it is in its static list (it merges that list into the fetched one).
  makersuite: listedModel(['gemini-3.7-flash', 'gemini-2.5-flash']),
};

/** Reverse-proxy password used for claude/makersuite (Claude: x-api-key header, Gemini: ?key=). */
export const MOCK_PROXY_PASSWORD = 'e2e-proxy-key';
export const MOCK_PROXY_NAME = 'E2E mock';

// Generous: a loaded 2-core machine (two e2e files at once, plus a build) has taken over 90 s to start it.
const READY_TIMEOUT_MS = 180_000;
const KILL_AFTER_MS = 8_000;

const TEST_CONFIG_YAML = `# written by tests/harness/st-server.ts
listen: false
protocol:
  ipv4: true
  ipv6: false
whitelistMode: false
basicAuthMode: false
enableUserAccounts: false
browserLaunch:
  enabled: false
sessionTimeout: -1
extensions:
  enabled: true
  autoUpdate: false
  models:
    autoDownload: false
enableDownloadableTokenizers: false
enableServerPlugins: false
skipContentCheck: false
backups:
  chat:
    enabled: false
thumbnails:
  enabled: false
logging:
  enableAccessLog: false
  minLogLevel: 1
`;

/** SillyTavern's getStringHash (cyrb53), public/scripts/utils.js. Used for Proxy_SkipConfirm_<hash>. */
export function stStringHash(str: string, seed = 0): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < str.length; i++) {
    const ch = str.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/**
 * The reverse-proxy URL to configure so that ST's upstream requests land on the mock:
 * - claude: ST POSTs `${proxy}/messages`  -> proxy = `${modelUrl}/v1` -> mock gets POST /v1/messages
 * - makersuite: ST POSTs `${proxy}/v1beta/models/<m>:generateContent?key=<pw>` (status: GET `${proxy}/v1beta/models?key=<pw>`)
 *   -> proxy = modelUrl
 */
export function proxyUrlFor(source: Exclude<ModelSource, 'custom'>, modelUrl: string): string {
  const base = modelUrl.replace(/\/+$/, '');
  return source === 'claude' ? `${base}/v1` : base;
}

/** Directory where the webpack cache is kept between runs when ST is not running in Docker. */
function webpackCacheDir(): string {
  // One cache per package: a 1.19 bundle must never seed a 1.18 run (or the other way round).
  const base = process.env.ST_E2E_WEBPACK_CACHE || path.join(os.tmpdir(), 'st-e2e-webpack-cache');
  return ST_PACKAGE === 'sillytavern' ? base : `${base}-${ST_PACKAGE}`;
}

/**
 * Built-in extensions that neither Tavern Agent nor its tests use. A page load with them took about a fifth
 * more CPU (12.5 s of the renderer, browser, network service and server together, against 16 s: 96 of 360
 * requests), and a test file spends most of its time loading pages. Regex, Connection Manager and
 * Attachments stay: tests and the extension use them.
 */
export const LEAN_DISABLED_EXTENSIONS = ['tts', 'quick-reply', 'stable-diffusion', 'translate', 'vectors', 'assets', 'caption', 'expressions', 'memory', 'gallery', 'token-counter'];

function buildSettings(opts: StartSillyTavernOptions): any {
  const source: ModelSource = opts.source ?? 'custom';
  const modelUrl = opts.modelUrl.replace(/\/+$/, '');
  const s = JSON.parse(fs.readFileSync(path.join(ST_DIR, 'default/content/settings.json'), 'utf8'));
  s.firstRun = false;
  s.username = 'Tester';
  s.main_api = 'openai';
  s.power_user ??= {};
  s.power_user.auto_connect = true;
  if (opts.builtInExtensions === 'lean') {
    s.extension_settings ??= {};
    s.extension_settings.disabledExtensions = [...LEAN_DISABLED_EXTENSIONS];
  }
  s.oai_settings ??= {};
  const oai = s.oai_settings;
  oai.chat_completion_source = source;
  oai.stream_openai = opts.streaming ?? false;
  oai.function_calling = false;
  oai.custom_prompt_post_processing = '';

  const none = { name: 'None', url: '', password: '' };
  if (source === 'custom') {
    oai.custom_url = `${modelUrl}/v1`;
    oai.custom_model = MOCK_MODEL_IDS.custom;
    oai.reverse_proxy = '';
    oai.proxy_password = '';
    s.proxies = [none];
    s.selected_proxy = none;
  } else {
    const url = proxyUrlFor(source, modelUrl);
    if (source === 'claude') oai.claude_model = MOCK_MODEL_IDS.claude;
    else oai.google_model = MOCK_MODEL_IDS.makersuite;
    // ST 1.19 takes reverse_proxy/proxy_password from the selected proxy preset, not from oai_settings.
    const preset = { name: MOCK_PROXY_NAME, url, password: MOCK_PROXY_PASSWORD };
    s.proxies = [none, preset];
    s.selected_proxy = preset;
    oai.reverse_proxy = url;
    oai.proxy_password = MOCK_PROXY_PASSWORD;
    // Without this the page shows a "Connecting To Proxy" confirmation popup once per URL.
    s.accountStorage = {
      ...(s.accountStorage ?? {}),
      __migrated: '1',
      [`Proxy_SkipConfirm_${stStringHash(url)}`]: 'true',
    };
  }
  return s;
}

function readTail(logPath: string, lines: number): string {
  try {
    const text = fs.readFileSync(logPath, 'utf8');
    return text.split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

async function httpStatus(url: string): Promise<number> {
  const ctrl = new AbortController();
  const t = setTimeout(() => ctrl.abort(), 2000);
  try {
    const res = await fetch(url, { signal: ctrl.signal, redirect: 'manual' });
    await res.arrayBuffer().catch(() => undefined);
    return res.status;
  } catch {
    return 0;
  } finally {
    clearTimeout(t);
  }
}

function withNoProxy(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const add = '127.0.0.1,localhost';
  const out = { ...env };
  for (const k of ['NO_PROXY', 'no_proxy']) out[k] = out[k] ? `${out[k]},${add}` : add;
  return out;
}

export async function startSillyTavern(opts: StartSillyTavernOptions): Promise<SillyTavernServer> {
  if (!fs.existsSync(path.join(ST_DIR, 'server.js'))) {
    throw new Error(`SillyTavern not found at ${ST_DIR} (npm install; TAVERN_AGENT_ST_PACKAGE=${ST_PACKAGE})`);
  }
  const source: ModelSource = opts.source ?? 'custom';
  const port = opts.port ?? (await freePort());
  const persistent = opts.persistentRunDir !== undefined;
  const runDir = persistent ? path.resolve(opts.persistentRunDir!) : fs.mkdtempSync(path.join(os.tmpdir(), 'st-e2e-'));
  const dataRoot = path.join(runDir, 'data');
  const userDir = path.join(dataRoot, 'default-user');
  const configPath = path.join(runDir, 'config.yaml');
  const logPath = path.join(runDir, 'st.log');
  const url = `http://127.0.0.1:${port}`;

  fs.mkdirSync(userDir, { recursive: true });
  fs.writeFileSync(configPath, TEST_CONFIG_YAML + `port: ${port}\n`);

  const settingsPath = path.join(userDir, 'settings.json');
  if (!persistent || !fs.existsSync(settingsPath)) {
    const settings = buildSettings(opts);
    opts.patchSettings?.(settings);
    fs.writeFileSync(settingsPath, JSON.stringify(settings, null, 4));
  }

  if (source === 'makersuite') {
    // Auto-connect for Google AI Studio needs a saved key, even though the proxy password is what gets sent.
    const secrets = {
      _migrated: [],
      api_key_makersuite: [{ id: 'e2e-makersuite', value: 'placeholder', label: 'e2e', active: true }],
    };
    fs.writeFileSync(path.join(userDir, 'secrets.json'), JSON.stringify(secrets, null, 4));
  }

  if (opts.linkExtensions?.length) {
    const extDir = path.join(userDir, 'extensions');
    fs.mkdirSync(extDir, { recursive: true });
    for (const { folder, dir } of opts.linkExtensions) {
      const linkPath = path.join(extDir, folder);
      if (fs.lstatSync(linkPath, { throwIfNoEntry: false })?.isSymbolicLink()) fs.unlinkSync(linkPath);
      fs.symlinkSync(path.resolve(dir), path.join(extDir, folder), 'dir');
    }
  }

  // Outside Docker the webpack cache lives in <dataRoot>/_webpack: seed it from an earlier run.
  const cacheDir = webpackCacheDir();
  const seededWebpack = fs.existsSync(cacheDir);
  if (seededWebpack) {
    try {
      fs.cpSync(cacheDir, path.join(dataRoot, '_webpack'), { recursive: true });
    } catch {
      /* a cold compile is slower but still works */
    }
  }

  // After a clone or a commit, the first start compiles webpack; the others wait for it (first-start-gate.ts).
  const releaseGate = await firstStartGate(ST_DIR, ST_VERSION, READY_TIMEOUT_MS);
  let child: ChildProcess;
  let logFd: number | undefined;
  try {
    logFd = fs.openSync(logPath, 'a');
    child = spawn(
      process.execPath,
      [
        'server.js',
        '--configPath', configPath,
        '--dataRoot', dataRoot,
        '--port', String(port),
        '--listen', 'false',
        '--browserLaunchEnabled', 'false',
      ],
      { cwd: ST_DIR, stdio: ['ignore', logFd, logFd], env: withNoProxy(process.env) },
    );
  } catch (error) {
    // Not started: the files waiting at the gate may go on (one of them compiles).
    releaseGate(false);
    throw error;
  } finally {
    if (logFd !== undefined) fs.closeSync(logFd);
  }

  let exited = child.exitCode !== null;
  let exitInfo = '';
  const exitPromise = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      exited = true;
      exitInfo = `code=${code} signal=${signal}`;
      resolve();
    });
    child.once('error', (err) => {
      exited = true;
      exitInfo = `spawn error: ${err.message}`;
      resolve();
    });
  });

  // If the test process dies without calling stop(), do not leave ST running.
  const onProcessExit = () => {
    if (!exited) {
      try {
        child.kill('SIGKILL');
      } catch {
        /* ignore */
      }
    }
    try {
      if (!persistent) fs.rmSync(runDir, { recursive: true, force: true });
    } catch {
      /* ignore */
    }
  };
  process.once('exit', onProcessExit);

  let ready = false;
  // Outside Docker: keep the compiled webpack cache for later data roots. Done after ST has exited,
  // so that webpack has finished writing its cache.
  const saveWebpackCache = async () => {
    const ownWebpack = path.join(dataRoot, '_webpack');
    if (!ready || seededWebpack || !fs.existsSync(ownWebpack) || fs.existsSync(cacheDir)) return;
    const tmp = `${cacheDir}.tmp-${process.pid}-${Date.now()}`;
    try {
      await fs.promises.cp(ownWebpack, tmp, { recursive: true });
      await fs.promises.rename(tmp, cacheDir);
    } catch {
      await fs.promises.rm(tmp, { recursive: true, force: true }).catch(() => undefined);
    }
  };

  let stopped: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopped ??= (async () => {
      if (!exited) {
        child.kill('SIGTERM');
        let timer: NodeJS.Timeout | undefined;
        const killer = new Promise<void>((resolve) => {
          timer = setTimeout(() => {
            if (!exited) child.kill('SIGKILL');
            resolve();
          }, KILL_AFTER_MS);
        });
        await Promise.race([exitPromise, killer]);
        clearTimeout(timer);
        await exitPromise;
      }
      process.removeListener('exit', onProcessExit);
      await saveWebpackCache();
      if (!persistent) await fs.promises.rm(runDir, { recursive: true, force: true });
    })();
    return stopped;
  };

  const logTail = (lines = 60) => readTail(logPath, lines);

  // Ready = GET / answers 200 (ST seeds content and compiles webpack before it listens).
  const started = Date.now();
  try {
    await waitUntilAnswers();
  } finally {
    releaseGate(ready);
  }
  return { url, port, runDir, dataRoot, userDir, logPath, logTail, stop };

  async function waitUntilAnswers(): Promise<void> {
    for (;;) {
      if (exited) {
        const tail = logTail(80);
        await stop();
        throw new Error(`SillyTavern exited before it was ready (${exitInfo}). Log tail:\n${tail}`);
      }
      if ((await httpStatus(`${url}/`)) === 200) {
        ready = true;
        break;
      }
      if (Date.now() - started > READY_TIMEOUT_MS) {
        const tail = logTail(80);
        await stop();
        throw new Error(`SillyTavern did not answer 200 on ${url}/ within ${READY_TIMEOUT_MS / 1000} s. Log tail:\n${tail}`);
      }
      await delay(200);
    }
  }
}
