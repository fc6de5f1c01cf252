import { describeError, fail, ok, type Result } from '../../contract/result';
import { SkillBundleSchema, type SkillBundle } from '../../contract/skills';
import type { EngineApi } from '../../contract/wire';
import { editSkillFile } from '../../skills/edit-file';
import { exportSkillsZip } from '../../skills/export-zip';
import { bundleHash } from '../../skills/hash';
import { parseSkillSources } from '../../skills/parse-sources';
import { encodeSkillPayload } from '../../skills/payload-encode';
import type { SkillCache } from '../../store/skill-cache';
import type { SkillAccess } from '../../tools/tool';

type SkillEngineApi = Pick<EngineApi, 'parseSkills' | 'cacheSkillBundles' | 'missingSkillBundles' | 'readSkillFile' | 'editSkillFile' | 'exportSkillsZip' | 'encodeSkillPayload'>;

const NOT_OPEN = 'The engine has not opened its storage yet.';

/** Bundles of these hashes, in order, or which of them the cache lacks. */
async function bundlesOf(cache: SkillCache, hashes: readonly string[]): Promise<Result<SkillBundle[]>> {
    const bundles = await Promise.all(hashes.map((hash) => cache.get(hash)));
    const missing = hashes.filter((_, index) => bundles[index] === undefined);
    if (missing.length > 0) return fail('skill.not_cached', `${missing.length} skill bundle(s) are not in this browser's cache.`, missing.join(', '));
    return ok(bundles as SkillBundle[]);
}

async function cachedBundle(cache: SkillCache, hash: string): Promise<Result<SkillBundle>> {
    const bundle = await cache.get(hash);
    return bundle ? ok(bundle) : fail('skill.not_cached', 'This skill is not in the browser cache.', hash);
}

/** Checks a bundle before it is cached: its shape, and that its hash is the hash of its files. */
async function checkBundle(raw: unknown): Promise<Result<SkillBundle>> {
    const parsed = SkillBundleSchema.safeParse(raw);
    const name = (raw as { name?: unknown } | null)?.name;
    if (!parsed.success) return fail('skill.invalid_bundle', `Skill bundle ${JSON.stringify(name ?? null)} is malformed.`, parsed.error.message);
    const actual = await bundleHash(parsed.data.files);
    if (actual !== parsed.data.hash) return fail('skill.hash_mismatch', `Skill "${parsed.data.name}" does not match its content hash.`, `stated ${parsed.data.hash}, computed ${actual}`);
    return ok(parsed.data);
}

/** The skill half of the engine: parsing, hashing and zipping run here, in the worker. */
export function createSkillApi(cacheOf: () => SkillCache | null): SkillEngineApi {
    async function withCache<T>(action: (cache: SkillCache) => Promise<Result<T>>): Promise<Result<T>> {
        const cache = cacheOf();
        if (!cache) return fail('store.not_open', NOT_OPEN);
        try {
            return await action(cache);
        } catch (error) {
            return fail('store.read_failed', 'Tavern Agent could not use its skill cache.', describeError(error));
        }
    }

    return {
        async parseSkills(sources) {
            try {
                return await parseSkillSources(sources);
            } catch (error) {
                return [{ name: sources[0]?.name ?? 'skill', bundle: null, warnings: [], error: `could not be read: ${describeError(error)}` }];
            }
        },
        cacheSkillBundles: (raw) =>
            withCache(async (cache) => {
                const checked: SkillBundle[] = [];
                for (const bundle of raw) {
                    const result = await checkBundle(bundle);
                    if (!result.ok) return result;
                    checked.push(result.value);
                }
                try {
                    await cache.put(checked);
                } catch (error) {
                    return fail('store.write_failed', 'Tavern Agent could not cache the skills in this browser.', describeError(error));
                }
                return ok(null);
            }),
        async missingSkillBundles(hashes) {
            const cache = cacheOf();
            return cache ? cache.missing(hashes) : [...hashes];
        },
        readSkillFile: (hash, path) =>
            withCache(async (cache) => {
                const bundle = await cachedBundle(cache, hash);
                if (!bundle.ok) return bundle;
                const file = bundle.value.files.find((candidate) => candidate.path === path);
                return file ? ok(file) : fail('skill.file_not_found', `Skill "${bundle.value.name}" has no file "${path}".`);
            }),
        editSkillFile: (hash, path, content) =>
            withCache(async (cache) => {
                const bundle = await cachedBundle(cache, hash);
                return bundle.ok ? editSkillFile(bundle.value, path, content) : bundle;
            }),
        exportSkillsZip: (hashes) =>
            withCache(async (cache) => {
                const bundles = await bundlesOf(cache, hashes);
                return bundles.ok ? ok(exportSkillsZip(bundles.value)) : bundles;
            }),
        encodeSkillPayload: (hashes) =>
            withCache(async (cache) => {
                const bundles = await bundlesOf(cache, hashes);
                return bundles.ok ? ok<unknown>(await encodeSkillPayload(bundles.value)) : bundles;
            }),
    };
}

/** A run's reader of skill files: each bundle is read from the cache at most once per run. */
export function skillFileReader(cache: SkillCache): SkillAccess['readFile'] {
    const memo = new Map<string, Promise<SkillBundle | undefined>>();
    return async (hash, path) => {
        let bundle = memo.get(hash);
        if (!bundle) {
            bundle = cache.get(hash);
            memo.set(hash, bundle);
        }
        return (await bundle)?.files.find((file) => file.path === path);
    };
}
