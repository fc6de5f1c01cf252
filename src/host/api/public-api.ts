import type { AgentStatus, Pipeline } from '../../contract/agent-mode';
import type { PipelineChange } from '../../contract/pipeline-change';
import { setChatPipeline } from '../pipeline/pipeline-settings';
import type { HealthReport } from '../../contract/wire';
import type { SkillsService } from '../../contract/skills-service';
import { ENGINE_VERSION } from '../../contract/version';
import { agentStatus, chatPipeline, setAgentMode } from '../settings/agent-mode';
import { checkEngineHealth } from '../worker/engine-status';
import { activeRun, cancelActiveRun } from '../run/active-run';
import { continueRun, resumeRun } from '../run/resume-run';
import type { RunOutcome } from '../../contract/run-input';
import type { RunObserver } from '../../contract/run-observer';
import { memoryApi, type TavernAgentMemoryApi } from './memory-public-api';
import { createRunApi, TavernAgentError, type PublicRunEvent, type PublicRunInfo, type RunOptions } from './run-api';

/** The API other extensions and scripts use: `globalThis.TavernAgent`. Grows with the runtime. */
export interface TavernAgentApi {
    readonly version: string;
    status(): AgentStatus;
    /** Stops the running agent run, if any. */
    stop(): Promise<boolean>;
    setEnabled(enabled: boolean): Promise<AgentStatus>;
    health(): Promise<HealthReport>;
    /** Continues an interrupted run of the open chat from its journal (refused, with a coded error, when it cannot). */
    resume(runId: string): Promise<RunOutcome>;
    continueRun(runId: string, rounds?: number): Promise<RunOutcome>;
    /** The user's skills (issue 11 §8): list, preview and import files, export a zip, delete. */
    readonly skills: TavernAgentSkillsApi;
    /** The open chat's pipeline (issue 34): who works before, on and after each reply. */
    readonly pipeline: TavernAgentPipelineApi;
    /** The open chat's long memory (issue 37): `memory.seedFrom(chatFileName)`, `memory.build()` and its status. */
    readonly memory: TavernAgentMemoryApi;
    /** Starts a run in the open chat (background unless `background: false`); resolves with its id at once. */
    run(options: RunOptions): Promise<string>;
    cancel(runId: string): Promise<boolean>;
    /** Stored journal events from `fromSeq` (inclusive), at most `limit`. */
    events(runId: string, options?: { fromSeq?: number; limit?: number }): Promise<PublicRunEvent[]>;
    /** Replays from `fromSeq`, then live; each event once, in order. Returns the unsubscribe function. */
    subscribe(runId: string, listener: (event: PublicRunEvent) => void, options?: { fromSeq?: number }): () => void;
    files(runId: string): Promise<string[]>;
    readFile(runId: string, path: string): Promise<string>;
    /** Stored runs of any chat by its id (the open chat's when absent), oldest first. */
    runs(options?: { chatId?: string }): Promise<PublicRunInfo[]>;
}

/** `TavernAgent.memory`: each part of issue 37 in its own object, spread here. */

export type TavernAgentSkillsApi = Pick<SkillsService, 'list' | 'preview' | 'import' | 'export' | 'delete'>;

export interface TavernAgentPipelineApi {
    /** The open chat's pipeline (the default one on the welcome screen). */
    get(): Pipeline;
    /** Sets any part of it and resolves with the new pipeline; rejects with a code and changes nothing when refused. */
    set(change: PipelineChange): Promise<Pipeline>;
}

/** `TavernAgent.pipeline`: the open chat's pipeline, read from the chat, set after its profiles are checked. */
export const pipelineApi: TavernAgentPipelineApi = Object.freeze({
    get: () => chatPipeline(),
    async set(change: PipelineChange) {
        const result = await setChatPipeline(change);
        if (!result.ok) throw new TavernAgentError(result.error.code, result.error.message);
        return result.value;
    },
});

function skillsApi(service: SkillsService): TavernAgentSkillsApi {
    // Only the documented five, bound: scripts get no handle on the rest of the service.
    return Object.freeze({
        // Exactly issue 11's shape: the manager's extra fields stay out of the public contract.
        list: async () => (await service.list()).map(({ name, description, scope, files }) => ({ name, description, scope, files })),
        preview: (files, options) => service.preview(files, options),
        import: (files, options) => service.import(files, options),
        export: (names, options) => service.export(names, options),
        delete: (name, options) => service.delete(name, options),
    } satisfies TavernAgentSkillsApi);
}

export function createPublicApi(skills: SkillsService, observer?: RunObserver): TavernAgentApi {
    const runs = createRunApi(observer ?? { onRunStart() {}, onEvents() {}, onRunEnd() {} });
    return {
        run: runs.run,
        cancel: runs.cancel,
        events: runs.events,
        subscribe: runs.subscribe,
        files: runs.files,
        readFile: runs.readFile,
        runs: runs.runs,
        skills: skillsApi(skills),
        pipeline: pipelineApi,
        memory: memoryApi,
        version: ENGINE_VERSION,
        status: () => agentStatus(activeRun()),
        async setEnabled(enabled) {
            const result = await setAgentMode(enabled);
            if (!result.ok) throw new Error(result.error.message);
            return agentStatus();
        },
        health: checkEngineHealth,
        stop: () => cancelActiveRun('Stopped through the API.'),
        async resume(runId) {
            const result = await resumeRun(runId);
            if (!result.ok) throw new TavernAgentError(result.error.code, result.error.message);
            return result.value;
        },
        async continueRun(runId, rounds) {
            const result = await continueRun(String(runId), rounds === undefined || rounds === null ? undefined : Number(rounds));
            if (!result.ok) throw new TavernAgentError(result.error.code, result.error.message);
            return result.value;
        },
    };
}
