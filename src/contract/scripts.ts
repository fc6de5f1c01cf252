/**
 * Scripts in the sandbox (issue 35): what the engine asks the sandbox to run, and what comes back. The
 * sandbox is QuickJS compiled to WebAssembly, in a Web Worker of its own; these shapes cross that wall.
 */

/** Hard limits of one script's execution (SKILL-SCRIPTS.md §1.5; tests pass smaller ones). */
export interface ScriptLimits {
    heapBytes: number;
    stackBytes: number;
    /** Wall time from the start, through the interrupt handler; the engine stops the worker a little later. */
    wallMs: number;
    /** The returned value as JSON. */
    resultBytes: number;
    /** Modules + workspace snapshot + args + context. */
    inputBytes: number;
    /** Final writes + logs + result; each write or log entry also costs 64 bytes of bookkeeping. */
    outputBytes: number;
    /** A program's console output returned to the model. */
    consoleBytes: number;
    /** Tool calls one program may make. */
    programCalls: number;
}

export const SCRIPT_LIMITS: ScriptLimits = {
    heapBytes: 32 * 1024 * 1024,
    stackBytes: 256 * 1024,
    wallMs: 30_000,
    resultBytes: 256 * 1024,
    inputBytes: 8 * 1024 * 1024,
    outputBytes: 1024 * 1024,
    consoleBytes: 8 * 1024,
    programCalls: 200,
};

/** A skill's module snapshot: at most this many `scripts/**.js` files, of at most this much source. */
export const SCRIPT_MODULE_LIMITS = { files: 64, bytes: 2 * 1024 * 1024 };

/** At most this many scripts run at once per run; more wait their turn. */
export const SCRIPTS_AT_ONCE_PER_RUN = 2;

/** The name of the runtime module a skill script imports (TauriTavern's). */
export const RUNTIME_MODULE = '@tauritavern/runtime';

/** An activated lore entry as a skill script reads it (`context.worldInfo.entries`). */
export interface ScriptWorldInfoEntry {
    uid: string;
    ref: string;
    content: string;
    constant: boolean;
    world: string;
    displayName?: string;
}

/** A skill's script (`skill.run_script`): an ES module whose default (or main) export is called with args. */
export interface SkillScriptRequest {
    kind: 'skill';
    /** The skill's `scripts/**.js` files, by their path in the skill (`scripts/lib/util.js`). */
    modules: Record<string, string>;
    /** `scripts/<name>.js`. */
    entry: string;
    args: Record<string, unknown>;
    /** The files under the roots the agent may see, as the script reads them; writes go to an overlay. */
    workspace: { files: Record<string, string>; visible: string[]; writable: string[] };
    context: { worldInfo: { entries: ScriptWorldInfoEntry[] }; variables: { local: Record<string, unknown>; global: Record<string, unknown> } };
    limits: ScriptLimits;
}

/** A program (`script.run`): the body of an async function, calling the read tools it is given. */
export interface ProgramRequest {
    kind: 'program';
    code: string;
    args: unknown;
    /** The tools it may call, by the name the model knows them (`chat_search`). */
    tools: string[];
    /** The agent's other tools: there, so that calling one rejects with `tool.not_allowed` and says why. */
    refusedTools: string[];
    limits: ScriptLimits;
}

export type ScriptRequest = SkillScriptRequest | ProgramRequest;

export interface ScriptLog {
    level: 'info' | 'warn' | 'error' | 'debug';
    text: string;
}

export type ScriptFailure = 'execution' | 'timeout' | 'result_too_large' | 'input_too_large' | 'output_too_large' | 'too_many_calls';

export type ScriptResult =
    | {
          ok: true;
          /** The returned value, as JSON text. */
          json: string;
          /** A skill script's writes: the last content of each path it wrote, by path. */
          writes: Array<{ path: string; content: string }>;
          lastWritePath: string | null;
          logs: ScriptLog[];
          /** A program's console output, cut at its limit. */
          console: string;
      }
    | { ok: false; failure: ScriptFailure; message: string; logs: ScriptLog[]; console: string };

/** A tool a program called, as the engine answered it: the tool's result text, or its error code. */
export type ToolCallAnswer = { ok: true; text: string } | { ok: false; code: string; message: string };

/** Runs scripts in the sandbox: the engine's worker pool, or QuickJS in-process in node tests. */
export interface ScriptRunner {
    run(request: ScriptRequest, callTool: (name: string, args: unknown) => Promise<ToolCallAnswer>, signal: AbortSignal): Promise<ScriptResult>;
}
