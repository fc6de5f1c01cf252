import type { IDBPDatabase } from 'idb';
import { describeError, fail, type Result } from '../../contract/result';
import type { ScriptRunner } from '../../contract/scripts';
import type { RetentionPolicy } from '../../contract/storage';
import { DEFAULT_RETENTION } from '../../contract/storage';
import type { TavernAgentDb } from '../../store/db';
import type { RunStorage } from '../../store/run-storage';
import type { SkillCache } from '../../store/skill-cache';
import type { GuidanceQueue } from '../agents/guidance-queue';
import type { LiveChannel } from '../tabs/live-channel';

/** A run this engine works on now: how to stop it, where its guidance goes. */
export interface RunningRun {
    controller: AbortController;
    guidance: GuidanceQueue;
}

/**
 * What the engine's facets share: the opened database of one SillyTavern user and its stores, the runs this
 * engine works on, the live channel to other tabs and the user's retention settings.
 */
export interface EngineState {
    db: IDBPDatabase<TavernAgentDb> | null;
    storage: RunStorage | null;
    skillCache: SkillCache | null;
    openedFor: string | null;
    live: LiveChannel | null;
    retention: RetentionPolicy;
    /** Names this engine in run leases: a tab never takes its own live run for another's. */
    readonly engineId: string;
    /** The script sandbox's pool, made when a run first starts (its workers start with the first script). */
    scripts: ScriptRunner | null;
    readonly running: Map<string, RunningRun>;
}

export function newEngineState(): EngineState {
    return {
        db: null,
        storage: null,
        skillCache: null,
        openedFor: null,
        live: null,
        retention: DEFAULT_RETENTION,
        engineId: `engine-${Math.random().toString(36).slice(2)}-${Date.now().toString(36)}`,
        scripts: null,
        running: new Map(),
    };
}

export const NOT_OPEN = 'The engine has not opened its storage yet.';

/** Runs a storage action, turning a missing database or a storage error into data. */
export async function withStorage<T>(state: EngineState, action: (storage: RunStorage) => Promise<Result<T>>, failedMessage = 'Tavern Agent could not use its browser storage.'): Promise<Result<T>> {
    if (!state.storage) return fail('store.not_open', NOT_OPEN);
    try {
        return await action(state.storage);
    } catch (error) {
        return fail('store.read_failed', failedMessage, describeError(error));
    }
}
