import { EXT_TOOL_TIMEOUT_MS, type ExtToolApproval, type ExtToolCallReply, type ExtToolCallRequest, type ExtToolSpec } from '../../contract/ext-tools';
import { t } from '../../i18n/t';
import { stContext } from '../sillytavern/st-context';

/** The part of SillyTavern's ToolManager (public/scripts/tool-calling.js) this file uses. */
interface StToolDefinition {
    toFunctionOpenAI(): { function: { name: string; description?: string; parameters?: unknown } };
    shouldRegister(): Promise<boolean>;
    readonly displayName?: string;
}
interface StToolManager {
    readonly tools: StToolDefinition[];
    invokeFunctionTool(name: string, parameters: unknown): Promise<unknown>;
}

function toolManager(): StToolManager | null {
    // The context carries ToolManager since 1.12; not in our StContext type, as only this file needs it.
    const manager = (stContext() as unknown as { ToolManager?: StToolManager }).ToolManager;
    return manager && Array.isArray(manager.tools) ? manager : null;
}

/** JSON only: a schema with functions or cycles must not break the run's input. */
function plainSchema(value: unknown): Record<string, unknown> {
    try {
        const copy: unknown = JSON.parse(JSON.stringify(value ?? {}));
        return copy && typeof copy === 'object' && !Array.isArray(copy) ? (copy as Record<string, unknown>) : {};
    } catch {
        return {};
    }
}

/**
 * Tools other extensions registered with ToolManager, that their `shouldRegister` offers now (one that
 * throws is left out, as SillyTavern would). Names a provider cannot take are skipped.
 */
export async function registeredExtTools(): Promise<ExtToolSpec[]> {
    const manager = toolManager();
    if (!manager) return [];
    const specs: ExtToolSpec[] = [];
    for (const tool of manager.tools) {
        try {
            if (!(await tool.shouldRegister())) continue;
            const { name, description, parameters } = tool.toFunctionOpenAI().function;
            if (!/^[A-Za-z0-9_-]{1,64}$/.test(name)) continue;
            specs.push({ name, displayName: String(tool.displayName ?? name), description: String(description ?? ''), parameters: plainSchema(parameters) });
        } catch {
            // A broken registration is skipped, never the run.
        }
    }
    return specs;
}

// ---- Approve / Deny before a call (a profile's "ask before each call") ----

type ApprovalListener = (pending: ExtToolApproval[]) => void;
const pending = new Map<string, { approval: ExtToolApproval; decide(approved: boolean): void }>();
const approvalListeners = new Set<ApprovalListener>();
let approvalCount = 0;

function notifyApprovals(): void {
    const list = [...pending.values()].map((entry) => entry.approval);
    for (const listener of approvalListeners) listener(list);
}

/** The panel shows the calls waiting for the user; this tells it when that list changes. */
export function onExtToolApprovals(listener: ApprovalListener): () => void {
    approvalListeners.add(listener);
    listener([...pending.values()].map((entry) => entry.approval));
    return () => approvalListeners.delete(listener);
}

export function decideExtToolCall(id: string, approved: boolean): void {
    pending.get(id)?.decide(approved);
}

/** A run that ends takes its open questions with it (answered as denied, though no one waits any more). */
export function dropExtToolApprovals(runId: string): void {
    for (const entry of [...pending.values()]) if (entry.approval.runId === runId) entry.decide(false);
}

/**
 * Asks the user to Approve or Deny one call in the timeline: an extension tool's, or a change of global
 * variables (issue 36). Resolves false when they deny, or when the run ends first.
 */
export function askApproval(runId: string, name: string, args: unknown): Promise<boolean> {
    approvalCount += 1;
    const id = `approval-${approvalCount}`;
    const argsText = approvalArgsText(args);
    return new Promise((resolve) => {
        pending.set(id, {
            approval: { id, runId, name, argsText },
            decide(approved) {
                if (!pending.delete(id)) return;
                notifyApprovals();
                resolve(approved);
            },
        });
        notifyApprovals();
    });
}

/** A value longer than this is cut in the approval box, so the keys after it stay in view. */
const APPROVAL_VALUE_CHARS = 400;

/**
 * The arguments as the approval box shows them (issue 39 §8): one line per key, each value as JSON cut at
 * APPROVAL_VALUE_CHARS with its full length said, so a long first value never hides what the later keys ask.
 */
export function approvalArgsText(args: unknown): string {
    const json = (value: unknown) => {
        try {
            return JSON.stringify(value) ?? String(value);
        } catch {
            return String(value);
        }
    };
    if (!args || typeof args !== 'object' || Array.isArray(args)) return json(args ?? {});
    const lines = Object.entries(args).map(([key, value]) => {
        const text = json(value);
        return text.length > APPROVAL_VALUE_CHARS ? `${key}: ${text.slice(0, APPROVAL_VALUE_CHARS)}… (${text.length.toLocaleString('en-US')} ${t`chars`})` : `${key}: ${text}`;
    });
    return lines.length ? lines.join('\n') : '{}';
}

// ---- The call itself ----

function withTimeout<T>(work: Promise<T>, ms: number): Promise<{ done: true; value: T } | { done: false }> {
    return new Promise((resolve, reject) => {
        const timer = setTimeout(() => resolve({ done: false }), ms);
        work.then(
            (value) => {
                clearTimeout(timer);
                resolve({ done: true, value });
            },
            (error: unknown) => {
                clearTimeout(timer);
                reject(error);
            },
        );
    });
}

/**
 * Runs one call the agent made: asks first when the profile says so, then invokes the tool through
 * ToolManager with a 30 s limit. The result text goes back to the agent only; nothing is written to the chat.
 */
export async function callExtTool(request: ExtToolCallRequest, inRunChat: () => boolean, timeoutMs = EXT_TOOL_TIMEOUT_MS): Promise<ExtToolCallReply> {
    const manager = toolManager();
    const registered = manager?.tools.some((tool) => tool.toFunctionOpenAI().function.name === request.name);
    if (!manager || !registered) return { ok: false, code: 'tool.not_allowed', message: `The tool "${request.name}" is no longer registered.` };
    if (request.ask && !(await askApproval(request.runId, `ext.${request.name}`, request.args))) {
        return { ok: false, code: 'tool.denied_by_user', message: `The user denied this call of ext.${request.name}.` };
    }
    if (!inRunChat()) return { ok: false, code: 'tool.execution_failed', message: `Another chat is open: ext.${request.name} acts on the open chat, so it was not called.` };
    try {
        const settled = await withTimeout(manager.invokeFunctionTool(request.name, request.args ?? {}), timeoutMs);
        if (!settled.done) return { ok: false, code: 'tool.timeout', message: `ext.${request.name} did not answer within ${Math.round(timeoutMs / 1000)} s.` };
        const result = settled.value;
        // ToolManager returns an Error (it does not throw) when the tool's action failed.
        if (result instanceof Error) return { ok: false, code: 'tool.execution_failed', message: `ext.${request.name} failed: ${result.message}` };
        return { ok: true, text: typeof result === 'string' ? result : JSON.stringify(result ?? '') };
    } catch (error) {
        return { ok: false, code: 'tool.execution_failed', message: `ext.${request.name} failed: ${error instanceof Error ? error.message : String(error)}` };
    }
}
