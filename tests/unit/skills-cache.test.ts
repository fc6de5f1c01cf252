// The skill bundle cache (memory and IndexedDB through fake-indexeddb) and the engine's skill API.
// Run: node --import tsx --test tests/unit/skills-cache.test.ts
import 'fake-indexeddb/auto';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SkillBundle } from '../../src/contract/skills';
import { createSkillApi, skillFileReader } from '../../src/engine/api/skills-api';
import { parseSkillSources } from '../../src/skills/parse-sources';
import { parseSkillPayload } from '../../src/skills/payload';
import { openDB } from 'idb';
import { DATABASE_VERSION, databaseNameFor, openTavernAgentDb } from '../../src/store/db';
import { createIdbSkillCache, createMemorySkillCache, type SkillCache } from '../../src/store/skill-cache';
import { DICE_RULES, LORE_KEEPER, source, zipOf } from '../fixtures/skills';

/** [lore-keeper, dice-rules] */
async function bundles(): Promise<SkillBundle[]> {
    const parsed = await parseSkillSources([source('skills.zip', zipOf({ ...LORE_KEEPER, ...DICE_RULES }))]);
    assert.deepEqual(parsed.map((p) => p.name), ['lore-keeper', 'dice-rules']);
    return parsed.map((p) => p.bundle!);
}

async function idbCache(): Promise<SkillCache> {
    return createIdbSkillCache(await openTavernAgentDb(`test-${crypto.randomUUID()}`));
}

for (const [kind, make] of [['memory', async () => createMemorySkillCache()], ['IndexedDB', idbCache]] as const) {
    describe(`the ${kind} skill cache`, () => {
        it('keeps bundles by hash and says which are missing', async () => {
            const cache = await make();
            const [lore, dice] = await bundles();
            assert.deepEqual(await cache.missing([lore!.hash, dice!.hash]), [lore!.hash, dice!.hash]);
            await cache.put([lore!]);
            assert.deepEqual(await cache.missing([lore!.hash, dice!.hash]), [dice!.hash]);
            assert.deepEqual(await cache.get(lore!.hash), lore);
            assert.equal(await cache.get(dice!.hash), undefined);
        });
    });
}

describe('the database upgrade', () => {
    it('adds the skill bundle store to a version 1 database and keeps its runs', async () => {
        const handle = `upgrade-${crypto.randomUUID()}`;
        const old = await openDB(databaseNameFor(handle), 1, {
            upgrade(db) {
                db.createObjectStore('runs', { keyPath: 'runId' }).createIndex('byChat', 'chatKey');
            },
        });
        await old.put('runs', { runId: 'run-from-v1', chatKey: 'chat' });
        old.close();
        const db = await openTavernAgentDb(handle);
        assert.equal(db.version, DATABASE_VERSION);
        assert.ok(db.objectStoreNames.contains('skillBundles'));
        assert.deepEqual(await db.get('runs', 'run-from-v1'), { runId: 'run-from-v1', chatKey: 'chat' });
        db.close();
    });
});

describe('the engine skill API', () => {
    it('caches checked bundles, reads files, exports and encodes; refuses a bundle whose hash lies', async () => {
        const cache = await idbCache();
        const api = createSkillApi(() => cache);
        const [lore, dice] = await bundles();
        assert.deepEqual(await api.cacheSkillBundles([lore!, dice!]), { ok: true, value: null });
        assert.deepEqual(await api.missingSkillBundles([lore!.hash, 'f'.repeat(64)]), ['f'.repeat(64)]);

        const file = await api.readSkillFile(lore!.hash, 'references/places.md');
        assert.ok(file.ok);
        assert.match(file.value.content, /Silver Hollow/);
        const missing = await api.readSkillFile(lore!.hash, 'nope.md');
        assert.equal(!missing.ok && missing.error.code, 'skill.file_not_found');

        const forged = { ...dice!, files: dice!.files.map((f) => (f.path === 'SKILL.md' ? { ...f, content: `${f.content}\nextra` } : f)) };
        const refused = await api.cacheSkillBundles([forged]);
        assert.equal(!refused.ok && refused.error.code, 'skill.hash_mismatch');
        const malformed = await api.cacheSkillBundles([{ ...lore!, hash: 'nope' }]);
        assert.equal(!malformed.ok && malformed.error.code, 'skill.invalid_bundle');

        const zip = await api.exportSkillsZip([lore!.hash, dice!.hash]);
        assert.ok(zip.ok);
        const reparsed = await api.parseSkills([{ name: 'export.zip', bytes: zip.value.slice().buffer }]);
        assert.deepEqual(reparsed.map((p) => p.bundle?.hash).sort(), [lore!.hash, dice!.hash].sort());

        const payload = await api.encodeSkillPayload([lore!.hash]);
        assert.ok(payload.ok);
        const decoded = await parseSkillPayload(payload.value);
        assert.ok(decoded.ok);
        assert.equal(decoded.value[0]!.bundle?.hash, lore!.hash);

        const uncached = await api.exportSkillsZip(['e'.repeat(64)]);
        assert.equal(!uncached.ok && uncached.error.code, 'skill.not_cached');
    });

    it('answers store.not_open before the database is open', async () => {
        const api = createSkillApi(() => null);
        const result = await api.readSkillFile('a'.repeat(64), 'SKILL.md');
        assert.equal(!result.ok && result.error.code, 'store.not_open');
    });

    it("a run's reader reads each bundle from the cache once", async () => {
        const inner = createMemorySkillCache();
        const [lore] = await bundles();
        await inner.put([lore!]);
        let gets = 0;
        const counting: SkillCache = { ...inner, get: (hash) => ((gets += 1), inner.get(hash)) };
        const read = skillFileReader(counting);
        assert.equal((await read(lore!.hash, 'SKILL.md'))?.path, 'SKILL.md');
        assert.equal((await read(lore!.hash, 'references/places.md'))?.path, 'references/places.md');
        assert.equal(await read(lore!.hash, 'missing.md'), undefined);
        assert.equal(gets, 1);
    });
});
