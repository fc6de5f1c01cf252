import { transfer } from 'comlink';
import type { SkillBundle, SkillIndexEntry, SkillScope } from '../../contract/skills';
import { scopeKey } from '../../contract/skills';
import { t } from '../../i18n/t';
import type { BundleStore } from './bundle-files';
import type { SkillEngine } from './skill-engine';
import type { SkillIndexState, SkillIndexStore } from './skill-index';

export interface SkillStoreDeps {
    engine(): Promise<SkillEngine>;
    bundles: BundleStore;
    index: SkillIndexStore;
    now(): number;
}

export interface InstallRequest {
    bundle: SkillBundle;
    scope: SkillScope;
    source: SkillIndexEntry['source'];
}

/** Per skill name: null when installed, else the message the user sees. */
export type InstallOutcome = Map<string, string | null>;

function entryOf(request: InstallRequest, now: number): SkillIndexEntry {
    const { bundle, scope, source } = request;
    return {
        name: bundle.name,
        description: bundle.description,
        scope,
        hash: bundle.hash,
        files: bundle.files.map((file) => ({ path: file.path, bytes: file.bytes })),
        installedAt: now,
        ...(source ? { source } : {}),
    };
}

function sameSlot(a: { name: string; scope: SkillScope }, b: { name: string; scope: SkillScope }): boolean {
    return a.name === b.name && scopeKey(a.scope) === scopeKey(b.scope);
}

function message(error: unknown): string {
    return error instanceof Error ? error.message : String(error);
}

/**
 * The skill store: the index (user settings), the bundles (user files on the server) and the worker's
 * IndexedDB cache, kept in step. An install uploads first (retried once), then caches, then writes the
 * index line; any step failing leaves the index as it was, so no skill is ever half saved.
 */
export function createSkillStore(deps: SkillStoreDeps) {
    const listeners = new Set<() => void>();
    const changed = () => {
        for (const listener of listeners) {
            try {
                listener();
            } catch (error) {
                console.error('[Tavern Agent] a skills listener failed', error);
            }
        }
    };

    async function uploadWithRetry(bundle: SkillBundle): Promise<void> {
        try {
            await deps.bundles.upload(bundle);
        } catch {
            await deps.bundles.upload(bundle);
        }
    }

    /** Deletes the server files of these hashes when no index line references them any more. */
    async function collect(hashes: Iterable<string>, state: SkillIndexState): Promise<void> {
        const referenced = new Set(state.index.map((entry) => entry.hash));
        for (const hash of new Set(hashes)) {
            if (referenced.has(hash)) continue;
            await deps.bundles.remove(hash).catch((error: unknown) => console.warn('[Tavern Agent] could not delete an unused skill bundle', error));
        }
    }

    /** Fetches from the server every bundle the local cache lacks; returns the hashes that stay unavailable. */
    async function ensureCached(hashes: readonly string[]): Promise<Set<string>> {
        const unique = [...new Set(hashes)];
        if (!unique.length) return new Set();
        const engine = await deps.engine();
        const missing = await engine.missingSkillBundles(unique);
        const unavailable = new Set<string>();
        const fetched: SkillBundle[] = [];
        await Promise.all(
            missing.map(async (hash) => {
                try {
                    fetched.push(await deps.bundles.fetch(hash));
                } catch (error) {
                    console.warn('[Tavern Agent] a skill bundle could not be fetched', hash, error);
                    unavailable.add(hash);
                }
            }),
        );
        if (fetched.length) {
            const cached = await engine.cacheSkillBundles(fetched);
            if (!cached.ok) {
                console.warn('[Tavern Agent] skill bundles could not be cached', cached.error);
                for (const bundle of fetched) unavailable.add(bundle.hash);
            }
        }
        return unavailable;
    }

    /** Installs (or replaces) skills. One index write for all that got through upload and cache. */
    async function install(requests: readonly InstallRequest[]): Promise<InstallOutcome> {
        const outcome: InstallOutcome = new Map();
        const uploaded: InstallRequest[] = [];
        for (const request of requests) {
            try {
                await uploadWithRetry(request.bundle);
                uploaded.push(request);
            } catch (error) {
                outcome.set(request.bundle.name, `${t`Could not store the skill on the SillyTavern server:`} ${message(error)}`);
            }
        }
        if (!uploaded.length) return outcome;
        const fail = async (text: string) => {
            for (const request of uploaded) outcome.set(request.bundle.name, text);
            await collect(uploaded.map((r) => r.bundle.hash), deps.index.read());
        };
        const engine = await deps.engine();
        const cached = await engine.cacheSkillBundles(uploaded.map((r) => r.bundle));
        if (!cached.ok) {
            await fail(`${t`Could not cache the skill in this browser:`} ${cached.error.message}`);
            return outcome;
        }
        const now = deps.now();
        let replaced: string[] = [];
        let saved: SkillIndexState;
        try {
            saved = await deps.index.update((state) => {
                replaced = state.index.filter((entry) => uploaded.some((r) => sameSlot(entry, { name: r.bundle.name, scope: r.scope }))).map((entry) => entry.hash);
                const kept = state.index.filter((entry) => !uploaded.some((r) => sameSlot(entry, { name: r.bundle.name, scope: r.scope })));
                return { ...state, index: [...kept, ...uploaded.map((r) => entryOf(r, now))] };
            });
        } catch (error) {
            await fail(`${t`The skill was not installed:`} ${message(error)}`);
            return outcome;
        }
        for (const request of uploaded) outcome.set(request.bundle.name, null);
        await collect(replaced, saved);
        changed();
        return outcome;
    }

    /** Removes index lines; rejects (nothing removed) when the save fails. Returns the removed lines. */
    async function remove(match: (entry: SkillIndexEntry) => boolean): Promise<SkillIndexEntry[]> {
        let removed: SkillIndexEntry[] = [];
        const saved = await deps.index.update((state) => {
            removed = state.index.filter(match);
            return { ...state, index: state.index.filter((entry) => !match(entry)) };
        });
        if (removed.length) {
            await collect(removed.map((entry) => entry.hash), saved);
            changed();
        }
        return removed;
    }

    async function update(change: (state: SkillIndexState) => SkillIndexState): Promise<SkillIndexState> {
        const saved = await deps.index.update(change);
        changed();
        return saved;
    }

    return {
        entries: () => deps.index.read().index,
        declined: () => deps.index.read().declined,
        ensureCached,
        install,
        remove,
        update,
        /** Hands raw input to the worker without copying it (the buffers move). */
        transferSources: <T extends { bytes: ArrayBuffer }>(sources: T[]) => transfer(sources, sources.map((s) => s.bytes)),
        onChange(listener: () => void): () => void {
            listeners.add(listener);
            return () => listeners.delete(listener);
        },
    };
}

export type SkillStore = ReturnType<typeof createSkillStore>;
