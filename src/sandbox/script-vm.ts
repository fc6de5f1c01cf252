import { shouldInterruptAfterDeadline, type QuickJSContext, type QuickJSHandle, type QuickJSRuntime, type QuickJSWASMModule } from 'quickjs-emscripten-core';
import type { ScriptLimits } from '../contract/scripts';

/** Why a script ended without a value, as the runner reports it. */
export class ScriptStop extends Error {
    constructor(
        readonly failure: 'execution' | 'timeout' | 'result_too_large' | 'input_too_large' | 'output_too_large' | 'too_many_calls',
        message: string,
    ) {
        super(message);
    }
}

/**
 * One execution's QuickJS runtime and context, with its limits set: heap, stack, and a deadline the
 * interrupt handler enforces (SKILL-SCRIPTS.md §1.5). Nothing survives it: each execution gets a fresh one,
 * disposed at its end.
 */
export class ScriptVm {
    readonly runtime: QuickJSRuntime;
    readonly vm: QuickJSContext;
    readonly deadline: number;
    /** JSON.stringify as it was before any script code ran: a script that replaces it changes nothing. */
    private readonly stringify: QuickJSHandle;
    private readonly json: QuickJSHandle;

    constructor(
        quickjs: QuickJSWASMModule,
        readonly limits: ScriptLimits,
        now: () => number = Date.now,
    ) {
        this.runtime = quickjs.newRuntime();
        this.runtime.setMemoryLimit(limits.heapBytes);
        this.runtime.setMaxStackSize(limits.stackBytes);
        this.deadline = now() + limits.wallMs;
        this.runtime.setInterruptHandler(shouldInterruptAfterDeadline(this.deadline));
        this.vm = this.runtime.newContext();
        this.json = this.vm.getProp(this.vm.global, 'JSON');
        this.stringify = this.vm.getProp(this.json, 'stringify');
    }

    /** A JSON value as a VM value (parsed inside the VM: only data crosses). */
    fromJson(value: unknown): QuickJSHandle {
        const text = JSON.stringify(value ?? null);
        const parse = this.vm.getProp(this.json, 'parse');
        const parsed = this.vm.callFunction(parse, this.json, this.vm.newString(text));
        parse.dispose();
        return this.vm.unwrapResult(parsed);
    }

    /** A VM value as JSON text, with the VM's own JSON.stringify as it was at the start; throws a ScriptStop. */
    toJson(handle: QuickJSHandle, what: string): string {
        const type = this.vm.typeof(handle);
        if (type === 'undefined') throw new ScriptStop('execution', `The ${what} returned undefined; return null to mean "nothing".`);
        if (type === 'function') throw new ScriptStop('execution', `The ${what} returned a function, which is not JSON.`);
        const result = this.vm.callFunction(this.stringify, this.json, handle);
        if (result.error) throw new ScriptStop('execution', `The ${what}'s result could not be turned into JSON: ${this.errorText(result.error)}`);
        const text = this.vm.dump(result.value);
        result.value.dispose();
        return typeof text === 'string' ? text : 'null';
    }

    /** A thrown VM value as a message the model can act on: its message and stack, whole. */
    errorText(handle: QuickJSHandle): string {
        const dumped: unknown = this.vm.dump(handle);
        handle.dispose();
        if (dumped && typeof dumped === 'object') {
            const { name, message, stack } = dumped as { name?: unknown; message?: unknown; stack?: unknown };
            const head = [name, message].filter((part) => typeof part === 'string' && part).join(': ');
            return [head || JSON.stringify(dumped), typeof stack === 'string' ? stack.trimEnd() : ''].filter(Boolean).join('\n');
        }
        return String(dumped);
    }

    /** Whether a thrown VM value is the interrupt handler's stop (the deadline passed). */
    isInterrupt(message: string, now: () => number = Date.now): boolean {
        return /^InternalError: interrupted/.test(message) || now() >= this.deadline;
    }

    timeoutMessage(what: string): string {
        return `The ${what} timed out after ${(this.limits.wallMs / 1000).toFixed(1)}s and was interrupted.`;
    }

    /** Frees the context and runtime; a leak the release build reports is not the script's failure. */
    dispose(): void {
        try {
            this.stringify.dispose();
            this.json.dispose();
            this.vm.dispose();
            this.runtime.dispose();
        } catch {
            // Handles a failed execution left alive: the module stays usable, this runtime is dropped.
        }
    }
}

/** Text's size as the budgets count it: UTF-8 bytes. */
export function byteLength(text: string): number {
    return new TextEncoder().encode(text).length;
}
