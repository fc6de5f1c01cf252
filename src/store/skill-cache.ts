import type { IDBPDatabase } from 'idb';
import type { SkillBundle } from '../contract/skills';
import type { TavernAgentDb } from './db';

/**
 * Skill bundles by content hash. A bundle never changes under its hash, so putting one twice is harmless
 * and a run that froze its skills by hash always reads what it froze.
 */
export interface SkillCache {
    get(hash: string): Promise<SkillBundle | undefined>;
    /** Stores every bundle in one transaction: all or none. */
    put(bundles: readonly SkillBundle[]): Promise<void>;
    /** The hashes of `hashes` that are not cached. */
    missing(hashes: readonly string[]): Promise<string[]>;
}

export function createIdbSkillCache(db: IDBPDatabase<TavernAgentDb>): SkillCache {
    return {
        get: (hash) => db.get('skillBundles', hash),
        async put(bundles) {
            const tx = db.transaction('skillBundles', 'readwrite');
            await Promise.all([...bundles.map((bundle) => tx.store.put(bundle)), tx.done]);
        },
        async missing(hashes) {
            const tx = db.transaction('skillBundles', 'readonly');
            const keys = await Promise.all(hashes.map((hash) => tx.store.getKey(hash)));
            await tx.done;
            return hashes.filter((_, index) => keys[index] === undefined);
        },
    };
}

/** The same cache in memory, for unit tests. Bundles are cloned in and out, as IndexedDB would. */
export function createMemorySkillCache(): SkillCache {
    const bundles = new Map<string, SkillBundle>();
    return {
        async get(hash) {
            const bundle = bundles.get(hash);
            return bundle && structuredClone(bundle);
        },
        async put(list) {
            for (const bundle of list) bundles.set(bundle.hash, structuredClone(bundle));
        },
        async missing(hashes) {
            return hashes.filter((hash) => !bundles.has(hash));
        },
    };
}
