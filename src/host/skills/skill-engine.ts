import type { EngineApi } from '../../contract/wire';

/**
 * The engine methods the page-side skill store uses (worker side: parsing, unzipping and hashing never run
 * on the main thread; the IndexedDB bundle cache is keyed by content hash). A subset of `EngineApi`, so a
 * test can hand in a fake of just these.
 */
export type SkillEngine = Pick<
    EngineApi,
    'parseSkills' | 'cacheSkillBundles' | 'missingSkillBundles' | 'readSkillFile' | 'editSkillFile' | 'exportSkillsZip' | 'encodeSkillPayload'
>;
