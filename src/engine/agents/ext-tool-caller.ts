import type { ExtToolCallReply } from '../../contract/ext-tools';
import type { HostBridge } from '../../contract/wire';
import type { ExtToolCaller } from '../../tools/ext/index';

/**
 * How the worker reaches another extension's tool: through the host bridge (the tool lives on the page).
 * A cancel stops the wait at once; the page drops its approval prompt when the run ends.
 */
export function extToolCaller(host: HostBridge, runId: string): ExtToolCaller {
    return (name, args, signal, ask) => {
        const call = host.callExtTool;
        if (!call) return Promise.resolve({ ok: false, code: 'tool.not_allowed', message: `ext.${name} cannot be called here.` });
        const cancelled: ExtToolCallReply = { ok: false, code: 'tool.execution_failed', message: 'The call was cancelled.' };
        if (signal.aborted) return Promise.resolve(cancelled);
        return new Promise((resolve) => {
            const onAbort = () => resolve(cancelled);
            signal.addEventListener('abort', onAbort, { once: true });
            call({ runId, name, args, ask }).then(
                (reply) => {
                    signal.removeEventListener('abort', onAbort);
                    resolve(reply);
                },
                (error: unknown) => {
                    signal.removeEventListener('abort', onAbort);
                    resolve({ ok: false, code: 'tool.execution_failed', message: error instanceof Error ? error.message : String(error) });
                },
            );
        });
    };
}
