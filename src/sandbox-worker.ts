// The script sandbox's worker (issue 35): QuickJS compiled to WebAssembly, loaded when the first script runs.
// The engine's worker starts it (engine/scripts/sandbox-pool.ts) and gives it one script at a time; a script
// that spins blocks only this worker, which the engine stops when the script's time is up.
import { expose, releaseProxy, type Remote } from 'comlink';
import type { ScriptRequest, ScriptResult, ToolCallAnswer } from './contract/scripts';
import { loadQuickJs } from './sandbox/load-quickjs';
import { runScript } from './sandbox/run-script';

export interface SandboxApi {
    run(request: ScriptRequest, wasmUrl: string, callTool: (name: string, args: unknown) => Promise<ToolCallAnswer>): Promise<ScriptResult>;
}

const api: SandboxApi = {
    async run(request, wasmUrl, callTool) {
        try {
            return await runScript(await loadQuickJs(wasmUrl), request, callTool);
        } finally {
            // The callback is a comlink proxy made for this script: release its port.
            (callTool as Partial<Remote<typeof callTool>>)[releaseProxy]?.();
        }
    },
};

expose(api);
