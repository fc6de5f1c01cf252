import type { QuickJSHandle, QuickJSWASMModule } from 'quickjs-emscripten-core';
import { RUNTIME_MODULE, type ProgramRequest, type ScriptLog, type ScriptRequest, type ScriptResult, type SkillScriptRequest, type ToolCallAnswer } from '../contract/scripts';
import { ENTRY_WRAPPER, moduleRefusal, resolveModuleName } from './module-names';
import { byteLength, ScriptStop, ScriptVm } from './script-vm';
import { ENTRY_OVERHEAD_BYTES, WorkspaceOverlay } from './workspace-overlay';

type CallTool = (name: string, args: unknown) => Promise<ToolCallAnswer>;

/** The global the runtime module takes its host functions from, and deletes before any script code runs. */
const HOST_GLOBAL = '__tavernAgentRuntime';

/** `@tauritavern/runtime` (SKILL-SCRIPTS.md §1.3): the only way a skill script reaches the workspace, context and log. */
const RUNTIME_SOURCE = `
const host = globalThis.${HOST_GLOBAL};
delete globalThis.${HOST_GLOBAL};
export const workspace = Object.freeze({ readText: host.readText, writeText: host.writeText, listFiles: host.listFiles, exists: host.exists });
export const context = host.context;
export const log = Object.freeze({ info: (text) => host.log('info', text), warn: (text) => host.log('warn', text), error: (text) => host.log('error', text), debug: (text) => host.log('debug', text) });
`;

/** Evaluated first: it imports the runtime module (which hides its host object), then the entry module. */
function entryWrapper(entry: string): string {
    const relative = `./${entry.slice('scripts/'.length)}`;
    return `import * as runtime from '${RUNTIME_MODULE}';
import * as entry from ${JSON.stringify(relative)};
export async function run(args) {
    const main = typeof entry.default === 'function' ? entry.default : entry.main;
    if (typeof main !== 'function') throw new TypeError('skill script must export a \`default\` or \`main\` function');
    return await main(args);
}`;
}

function inputBytes(request: ScriptRequest): number {
    if (request.kind === 'program') return byteLength(request.code) + byteLength(JSON.stringify(request.args ?? null));
    const modules = Object.entries(request.modules).reduce((sum, [path, text]) => sum + byteLength(path) + byteLength(text), 0);
    const files = Object.entries(request.workspace.files).reduce((sum, [path, text]) => sum + byteLength(path) + byteLength(text), 0);
    return modules + files + byteLength(JSON.stringify(request.args)) + byteLength(JSON.stringify(request.context));
}

/**
 * Runs one script in a fresh QuickJS runtime and returns its value as JSON, with a skill script's final
 * writes and logs, or a program's console output; or why it failed (SKILL-SCRIPTS.md §1.5–§1.6). A program's
 * tool calls are host promises: between them the runner drives QuickJS's job queue, and waits for the next
 * answer while nothing else can run.
 */
export async function runScript(quickjs: QuickJSWASMModule, request: ScriptRequest, callTool: CallTool, now: () => number = Date.now): Promise<ScriptResult> {
    const logs: ScriptLog[] = [];
    const output = { console: '', consoleFull: false };
    const size = inputBytes(request);
    if (size > request.limits.inputBytes) {
        return { ok: false, failure: 'input_too_large', message: `The script's input (modules, workspace files, args and context) is ${size} bytes, over its ${request.limits.inputBytes}-byte input budget.`, logs, console: '' };
    }
    const machine = new ScriptVm(quickjs, request.limits, now);
    const what = request.kind === 'skill' ? 'skill script' : 'program';
    try {
        const run = request.kind === 'skill' ? new SkillScriptRun(machine, request, logs, now) : new ProgramRun(machine, request, callTool, output, now);
        const json = await run.execute();
        if (byteLength(json) > request.limits.resultBytes) {
            const advice = request.kind === 'skill' ? 'Write large output with workspace.writeText and return its path instead.' : 'Return less: counts or a summary, not whole texts.';
            throw new ScriptStop('result_too_large', `The ${what}'s result is ${byteLength(json)} bytes, over the ${request.limits.resultBytes}-byte limit. ${advice}`);
        }
        const writes = run instanceof SkillScriptRun ? run.overlay.finalWrites() : [];
        const spent = (run instanceof SkillScriptRun ? run.overlay.outputBytes(byteLength) : 0) + run.logBytes + byteLength(json);
        if (spent > request.limits.outputBytes) throw new ScriptStop('output_too_large', `The ${what}'s output (writes, logs and result: ${spent} bytes) is over its ${request.limits.outputBytes}-byte output budget.`);
        return { ok: true, json, writes, lastWritePath: run instanceof SkillScriptRun ? run.overlay.lastWritePath : null, logs, console: output.console };
    } catch (error) {
        const stop = error instanceof ScriptStop ? error : new ScriptStop('execution', error instanceof Error ? error.message : String(error));
        return { ok: false, failure: stop.failure, message: stop.message, logs, console: output.console };
    } finally {
        machine.dispose();
    }
}

/** What both kinds share: settling a VM promise while host work (a program's tool calls) is outstanding. */
abstract class Run {
    /** Host promises the script waits on; each one settles a VM promise when it ends. */
    protected readonly pending = new Set<Promise<void>>();
    /** A stop a host function decided (a budget): reported once the VM has unwound. */
    protected stop: ScriptStop | null = null;
    logBytes = 0;

    constructor(
        protected readonly machine: ScriptVm,
        protected readonly what: string,
        protected readonly now: () => number,
    ) {}

    abstract execute(): Promise<string>;

    protected fail(error: QuickJSHandle): never {
        const text = this.machine.errorText(error);
        if (this.stop) throw this.stop;
        if (this.machine.isInterrupt(text, this.now)) throw new ScriptStop('timeout', this.machine.timeoutMessage(this.what));
        throw new ScriptStop('execution', text);
    }

    /** The value a VM promise (or a plain value) settles to; runs the job queue and waits on host work. */
    protected async settle(handle: QuickJSHandle): Promise<QuickJSHandle> {
        const { runtime, vm } = this.machine;
        for (;;) {
            const jobs = runtime.executePendingJobs();
            if (jobs.error) this.fail(jobs.error);
            const state = vm.getPromiseState(handle);
            if (state.type === 'fulfilled') {
                if (state.notAPromise) return handle;
                handle.dispose();
                return state.value;
            }
            if (state.type === 'rejected') {
                handle.dispose();
                this.fail(state.error);
            }
            if (this.stop) throw this.stop;
            if (this.now() >= this.machine.deadline) throw new ScriptStop('timeout', this.machine.timeoutMessage(this.what));
            if (this.pending.size === 0) {
                handle.dispose();
                throw new ScriptStop('execution', `The ${this.what} waits on a promise that never settles: nothing is left that could settle it.`);
            }
            let timer: ReturnType<typeof setTimeout> | undefined;
            const deadline = new Promise((resolve) => (timer = setTimeout(resolve, Math.max(0, this.machine.deadline - this.now()))));
            await Promise.race([...this.pending, deadline]);
            clearTimeout(timer);
        }
    }
}

class SkillScriptRun extends Run {
    readonly overlay: WorkspaceOverlay;

    constructor(
        machine: ScriptVm,
        private readonly request: SkillScriptRequest,
        private readonly logs: ScriptLog[],
        now: () => number,
    ) {
        super(machine, 'skill script', now);
        this.overlay = new WorkspaceOverlay(request.workspace.files, { visible: request.workspace.visible, writable: request.workspace.writable });
    }

    async execute(): Promise<string> {
        const { runtime, vm } = this.machine;
        const { modules, entry } = this.request;
        runtime.setModuleLoader(
            (name) => {
                if (name === RUNTIME_MODULE) return RUNTIME_SOURCE;
                if (name === ENTRY_WRAPPER) return entryWrapper(entry);
                const refusal = moduleRefusal(name, modules);
                return refusal ? { error: new Error(refusal) } : modules[name]!;
            },
            (importer, specifier) => resolveModuleName(importer, specifier),
        );
        if (!Object.hasOwn(modules, entry)) throw new ScriptStop('execution', `The entry module ${entry} is not in the skill's scripts.`);
        this.installHost();
        const evaluated = vm.evalCode(entryWrapper(entry), ENTRY_WRAPPER, { type: 'module' });
        if (evaluated.error) this.fail(evaluated.error);
        const namespace = await this.settle(evaluated.value);
        const run = vm.getProp(namespace, 'run');
        namespace.dispose();
        const args = this.machine.fromJson(this.request.args);
        const called = vm.callFunction(run, vm.undefined, args);
        run.dispose();
        args.dispose();
        if (called.error) this.fail(called.error);
        const value = await this.settle(called.value);
        try {
            return this.machine.toJson(value, 'skill script');
        } finally {
            value.dispose();
        }
    }

    /** The runtime module's host object: the overlay's four calls, the frozen context and log. */
    private installHost(): void {
        const { vm } = this.machine;
        const host = vm.newObject();
        const define = (name: string, fn: (...args: unknown[]) => unknown) => {
            vm.newFunction(name, (...handles) => {
                try {
                    const result = fn(...handles.map((handle) => vm.dump(handle)));
                    if (result === undefined) return vm.undefined;
                    if (typeof result === 'boolean') return result ? vm.true : vm.false;
                    if (typeof result === 'string') return vm.newString(result);
                    return this.machine.fromJson(result);
                } catch (error) {
                    return { error: vm.newError({ name: error instanceof TypeError ? 'TypeError' : 'Error', message: error instanceof Error ? error.message : String(error) }) };
                }
            }).consume((fn) => vm.setProp(host, name, fn));
        };
        define('readText', (path) => this.overlay.readText(path));
        define('writeText', (path, text) => {
            this.overlay.writeText(path, text);
            this.checkOutput();
        });
        define('listFiles', (path) => this.overlay.listFiles(path));
        define('exists', (path) => this.overlay.exists(path));
        define('log', (level, text) => {
            if (typeof text !== 'string') throw new TypeError(`log.${String(level)} takes one string.`);
            this.logs.push({ level: level as ScriptLog['level'], text });
            this.logBytes += byteLength(text) + ENTRY_OVERHEAD_BYTES;
            this.checkOutput();
        });
        const context = this.machine.fromJson(this.request.context);
        vm.setProp(host, 'context', context);
        context.dispose();
        vm.setProp(vm.global, HOST_GLOBAL, host);
        host.dispose();
    }

    /** Writes and logs past the output budget stop the script at once (SKILL-SCRIPTS.md §1.5). */
    private checkOutput(): void {
        const spent = this.overlay.outputBytes(byteLength) + this.logBytes;
        if (spent > this.request.limits.outputBytes) {
            this.stop = new ScriptStop('output_too_large', `The skill script's output (writes and logs: ${spent} bytes) is over its ${this.request.limits.outputBytes}-byte output budget.`);
            throw new Error(this.stop.message);
        }
    }
}

class ProgramRun extends Run {
    private calls = 0;

    constructor(
        machine: ScriptVm,
        private readonly request: ProgramRequest,
        private readonly callTool: CallTool,
        private readonly output: { console: string; consoleFull: boolean },
        now: () => number,
    ) {
        super(machine, 'program', now);
    }

    async execute(): Promise<string> {
        const { vm } = this.machine;
        const compiled = vm.evalCode(`(async function (args, tools, console) {\n${this.request.code}\n})`, 'program.js', { type: 'global' });
        if (compiled.error) this.fail(compiled.error);
        const fn = compiled.value;
        const args = this.machine.fromJson(this.request.args ?? {});
        const tools = this.toolsObject();
        const consoleObject = this.consoleObject();
        const called = vm.callFunction(fn, vm.undefined, args, tools, consoleObject);
        for (const handle of [fn, args, tools, consoleObject]) handle.dispose();
        if (called.error) this.fail(called.error);
        const value = await this.settle(called.value);
        try {
            return vm.typeof(value) === 'undefined' ? 'null' : this.machine.toJson(value, 'program');
        } finally {
            value.dispose();
        }
    }

    /** `tools.<name>(args)`: a promise of the tool's result text, or a rejection carrying the tool's code. */
    private toolsObject(): QuickJSHandle {
        const { vm } = this.machine;
        const tools = vm.newObject();
        for (const name of this.request.refusedTools) {
            vm.newFunction(name, () => {
                const deferred = vm.newPromise();
                const error = vm.newError({ name: 'ToolError', message: `tool.not_allowed: a program cannot call ${name}; it may call ${this.request.tools.join(', ')}.` });
                vm.newString('tool.not_allowed').consume((code) => vm.setProp(error, 'code', code));
                deferred.reject(error);
                error.dispose();
                const handle = deferred.handle.dup();
                deferred.dispose();
                return handle;
            }).consume((fn) => vm.setProp(tools, name, fn));
        }
        for (const name of this.request.tools) {
            vm.newFunction(name, (argsHandle) => {
                const args: unknown = argsHandle ? vm.dump(argsHandle) : {};
                const deferred = vm.newPromise();
                this.calls += 1;
                const answered: Promise<ToolCallAnswer> =
                    this.calls > this.request.limits.programCalls
                        ? Promise.resolve({ ok: false, code: 'script.too_many_calls', message: `A program may call tools at most ${this.request.limits.programCalls} times.` })
                        : this.callTool(name, args).catch((error: unknown) => ({ ok: false, code: 'tool.execution_failed', message: error instanceof Error ? error.message : String(error) }));
                const settled = answered.then((answer) => {
                    if (!deferred.alive) return;
                    if (answer.ok) {
                        vm.newString(answer.text).consume((text) => deferred.resolve(text));
                    } else {
                        const error = vm.newError({ name: 'ToolError', message: `${answer.code}: ${answer.message}` });
                        vm.newString(answer.code).consume((code) => vm.setProp(error, 'code', code));
                        deferred.reject(error);
                        error.dispose();
                    }
                    deferred.dispose();
                });
                const tracked = settled.finally(() => this.pending.delete(tracked));
                this.pending.add(tracked);
                return deferred.handle;
            }).consume((fn) => vm.setProp(tools, name, fn));
        }
        return tools;
    }

    /** console.log/info/warn/error: what they print comes back to the model, cut at its limit. */
    private consoleObject(): QuickJSHandle {
        const { vm } = this.machine;
        const consoleObject = vm.newObject();
        for (const level of ['log', 'info', 'warn', 'error', 'debug']) {
            vm.newFunction(level, (...handles) => {
                const line = handles.map((handle) => {
                    const value: unknown = vm.dump(handle);
                    return typeof value === 'string' ? value : JSON.stringify(value);
                });
                this.print(`${level === 'log' ? '' : `[${level}] `}${line.join(' ')}\n`);
            }).consume((fn) => vm.setProp(consoleObject, level, fn));
        }
        return consoleObject;
    }

    private print(text: string): void {
        if (this.output.consoleFull) return;
        const limit = this.request.limits.consoleBytes;
        if (byteLength(this.output.console + text) <= limit) {
            this.output.console += text;
            return;
        }
        this.output.console = `${this.output.console}${text}`.slice(0, Math.max(0, limit - 40)) + `\n[console output cut at ${limit} bytes]`;
        this.output.consoleFull = true;
    }
}
