// A host for sub-agent bench runs: answers the parent and its children by what each request offers (the
// parent's offers agent_delegate, a child's offers task_return), children after `childDelayMs` as a slow
// model would, the parent at once. Used inside the bench worker, so only the engine's own time is measured.
import type { JournalEvent } from '../../src/contract/events';
import type { ModelRequest } from '../../src/contract/model';
import type { HostBridge } from '../../src/contract/wire';

export type SubagentScript = 'plain' | 'round' | 'parallel' | 'serial';

const CHILDREN = ['researcher', 'editor', 'researcher'] as const;

let ids = 0;

function toolCall(name: string, args: unknown) {
    ids += 1;
    return { id: `call_${ids}`, type: 'function', function: { name, arguments: JSON.stringify(args) } };
}

function reply(calls: unknown[]) {
    return {
        id: `bench-${ids}`,
        object: 'chat.completion',
        model: 'bench',
        choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: calls }, finish_reason: 'tool_calls' }],
        usage: { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 },
    };
}

const delegate = (agentId: string, n: number) => toolCall('agent_delegate', { agentId, task: { objective: `Bench task ${n}.`, title: `Task ${n}` } });
const awaitAll = () => toolCall('agent_await', { mode: 'allCompleted' });
const finish = () => [
    toolCall('workspace_write_file', { path: 'output/main.md', content: 'The forest is quiet tonight.' }),
    toolCall('workspace_commit', {}),
    toolCall('workspace_finish', {}),
];

/**
 * The parent's turns. plain: two list_files rounds (the baseline of `round`); round: one delegate, one
 * await; parallel: three delegates in one turn, one await; serial: delegate + await, three times.
 */
function parentTurns(script: SubagentScript): unknown[][] {
    switch (script) {
        case 'plain':
            return [[toolCall('workspace_list_files', {})], [toolCall('workspace_list_files', {})], finish()];
        case 'round':
            return [[delegate('researcher', 1)], [awaitAll()], finish()];
        case 'parallel':
            return [CHILDREN.map((agent, i) => delegate(agent, i + 1)), [awaitAll()], finish()];
        case 'serial':
            return [...CHILDREN.flatMap((agent, i) => [[delegate(agent, i + 1)], [awaitAll()]]), finish()];
    }
}

export function subagentHost(script: SubagentScript, childDelayMs: number, onEvents: (batch: JournalEvent[]) => void = () => undefined): HostBridge & { childRequests: number } {
    const turns = parentTurns(script);
    let parentTurn = 0;
    const host = {
        childRequests: 0,
        async requestModel(request: ModelRequest) {
            const offered = request.tools.map((tool) => tool.function.name);
            if (offered.includes('task_return')) {
                host.childRequests += 1;
                if (childDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, childDelayMs));
                return { ok: true as const, raw: reply([toolCall('task_return', { summary: 'Done.' })]), durationMs: childDelayMs };
            }
            const calls = turns[parentTurn];
            parentTurn += 1;
            return calls
                ? { ok: true as const, raw: reply(calls), durationMs: 0 }
                : { ok: false as const, status: 500, message: 'no scripted reply', aborted: false };
        },
        async commit() {
            return { ok: true as const, value: { messageId: 2 } };
        },
        onEvents,
    };
    return host;
}
