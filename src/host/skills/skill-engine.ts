import type { Result } from '../../contract/result';
import type { ParsedSkill, SkillBundle, SkillFile, SkillSource } from '../../contract/skills';

/**
 * The engine methods the page-side skill store uses (worker side: parsing, unzipping and hashing never run
 * on the main thread; the IndexedDB bundle cache is keyed by content hash). A subset of `EngineApi`.
 */
export interface SkillEngine {
    parseSkills(sources: SkillSource[]): Promise<ParsedSkill[]>;
    /** A card's or preset's `tauritavern.skills` payload, either bundle format. */
    parseSkillPayload(payload: unknown): Promise<Result<ParsedSkill[]>>;
    cacheSkillBundles(bundles: SkillBundle[]): Promise<Result<null>>;
    /** The hashes of these that the local cache does not hold. */
    missingSkillBundles(hashes: string[]): Promise<string[]>;
    readSkillFile(hash: string, path: string): Promise<Result<SkillFile>>;
    exportSkillsZip(hashes: string[]): Promise<Result<Uint8Array>>;
    /** A `{version: 1, items}` payload for a card or preset. */
    encodeSkillPayload(hashes: string[]): Promise<Result<unknown>>;
}
