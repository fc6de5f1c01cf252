// The skills payload of cards and presets (TauriTavern's format), our encoder, and the export zip:
// both payload forms read, a bad version refused, one bad item refused alone, and round trips that
// keep the content hash.
// Run: node --import tsx --test tests/unit/skills-payload.test.ts
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import type { ParsedSkill, SkillBundle } from '../../src/contract/skills';
import { exportSkillsZip } from '../../src/skills/export-zip';
import { parseSkillSources } from '../../src/skills/parse-sources';
import { parseSkillPayload } from '../../src/skills/payload';
import { encodeSkillPayload } from '../../src/skills/payload-encode';
import { LORE_KEEPER, skillMd, source, zipOf } from '../fixtures/skills';

const INLINE_ITEM = {
    bundleFormat: 'inline-files-v1',
    skillName: 'lore-keeper',
    files: [
        { path: 'SKILL.md', encoding: 'utf8', content: LORE_KEEPER['lore-keeper/SKILL.md'] },
        { path: 'references/places.md', encoding: 'utf-8', content: LORE_KEEPER['lore-keeper/references/places.md'] },
        { path: 'assets/map.png', encoding: 'base64', content: Buffer.from([0x89, 0x50, 0, 1]).toString('base64'), mediaType: 'image/png', sizeBytes: 4 },
    ],
    source: { kind: 'character', id: 'seraphina', label: 'Seraphina' },
};

function archiveItem(files: Record<string, string>, name = 'dice-rules') {
    const zip = zipOf(files);
    return { bundleFormat: 'ttskill-archive-base64-v1', skillName: name, fileName: `${name}.ttskill`, contentBase64: Buffer.from(zip).toString('base64'), sha256: createHash('sha256').update(zip).digest('hex') };
}

async function skillsOf(payload: unknown): Promise<ParsedSkill[]> {
    const result = await parseSkillPayload(payload);
    if (!result.ok) assert.fail(result.error.message);
    return result.value;
}

async function bundlesFrom(files: Record<string, string>): Promise<SkillBundle[]> {
    return (await parseSkillSources([source('skills.zip', zipOf(files))])).map((p) => p.bundle!);
}

describe('reading a payload', () => {
    it('reads both bundle formats', async () => {
        const skills = await skillsOf({ version: 1, items: [INLINE_ITEM, archiveItem({ 'SKILL.md': skillMd('dice-rules', 'Rolls.'), 'examples/a.md': 'Roll.' })] });
        assert.deepEqual(skills.map((s) => [s.name, s.error]), [['lore-keeper', undefined], ['dice-rules', undefined]]);
        assert.deepEqual(skills[0]!.bundle!.files.map((f) => [f.path, f.encoding]), [['SKILL.md', 'utf8'], ['assets/map.png', 'base64'], ['references/places.md', 'utf8']]);
        assert.deepEqual(skills[0]!.warnings, ['holds binary files']);
        assert.deepEqual(skills[1]!.bundle!.files.map((f) => f.path), ['SKILL.md', 'examples/a.md']);
    });

    it('reads an archive whose skill sits in a folder', async () => {
        const skills = await skillsOf({ version: 1, items: [archiveItem(LORE_KEEPER, 'lore-keeper')] });
        assert.equal(skills[0]!.bundle?.name, 'lore-keeper');
    });

    it('refuses another version with a clear message', async () => {
        const result = await parseSkillPayload({ version: 2, items: [INLINE_ITEM] });
        assert.ok(!result.ok);
        assert.equal(result.error.code, 'skill.payload_version');
        assert.match(result.error.message, /version 2; this version of Tavern Agent reads version 1 only/);
    });

    it('refuses each bad item with its index while the good ones import', async () => {
        const good = archiveItem({ 'SKILL.md': skillMd('dice-rules', 'Rolls.') });
        const skills = await skillsOf({
            version: 1,
            items: [
                INLINE_ITEM,
                { bundleFormat: 'inline-files-v1', skillName: 'odd', files: [{ path: 'SKILL.md', encoding: 'latin1', content: 'x' }] },
                { ...good, sha256: '0'.repeat(64) },
                { bundleFormat: 'inline-files-v1', skillName: 'empty', files: [] },
                { bundleFormat: 'mystery-v9' },
                { bundleFormat: 'inline-files-v1', files: [{ path: '../escape.md', content: 'x' }] },
                good,
            ],
        });
        assert.deepEqual(
            skills.map((s) => s.error ?? `ok ${s.bundle?.name}`),
            [
                'ok lore-keeper',
                'items[1]: file "SKILL.md" has encoding "latin1" (utf8 or base64 expected)',
                'items[2]: the archive does not match its sha256',
                'items[3]: has no files',
                'items[4]: bundleFormat "mystery-v9" is not supported (inline-files-v1 or ttskill-archive-base64-v1 expected)',
                'items[5]: file "../escape.md" climbs out of its folder with ".."',
                'ok dice-rules',
            ],
        );
    });

    it('names the item and the field when SKILL.md is bad', async () => {
        const skills = await skillsOf({ version: 1, items: [{ bundleFormat: 'inline-files-v1', skillName: 'x', files: [{ path: 'SKILL.md', content: '---\nname: x\n---\n' }] }] });
        assert.equal(skills[0]!.error, 'items[0]: SKILL.md: front matter field "description" is missing');
    });
});

describe('writing a payload and an export', () => {
    it('encodes small text skills inline and others as a zip, and reads them back with the same hashes', async () => {
        const small = await bundlesFrom(LORE_KEEPER);
        const large = await bundlesFrom({ 'SKILL.md': skillMd('big-lore', 'Much lore.'), 'references/all.md': Array.from({ length: 4000 }, (_, i) => `Line ${i}: the river runs ${i % 7 === 0 ? 'east' : 'west'} past stone ${(i * 7919) % 1009}.`).join('\n') });
        const binary = (await parseSkillSources([source('bin/SKILL.md', skillMd('with-map', 'Has a map.')), source('bin/assets/map.png', new Uint8Array([0x89, 0, 1]))])).map((p) => p.bundle!);
        const bundles = [...small, ...large, ...binary];
        const payload = await encodeSkillPayload(bundles);
        assert.equal(payload.version, 1);
        assert.deepEqual(payload.items.map((item) => item.bundleFormat), ['inline-files-v1', 'ttskill-archive-base64-v1', 'ttskill-archive-base64-v1']);
        const archive = payload.items[1]!;
        assert.equal(archive.sha256, createHash('sha256').update(Buffer.from(String(archive.contentBase64), 'base64')).digest('hex'));
        const back = await skillsOf(JSON.parse(JSON.stringify(payload)));
        assert.deepEqual(back.map((s) => s.bundle?.hash), bundles.map((b) => b.hash));
        assert.deepEqual(await encodeSkillPayload(bundles), payload, 'the same bundles encode to the same payload');
    });

    it('exports a zip with one folder per skill that re-imports with the same hashes', async () => {
        const bundles = await bundlesFrom({ ...LORE_KEEPER, 'dice-rules/SKILL.md': skillMd('dice-rules', 'Rolls.') });
        const zip = exportSkillsZip(bundles);
        const back = await parseSkillSources([source('export.zip', zip)]);
        assert.deepEqual(back.map((s) => s.bundle?.hash).sort(), bundles.map((b) => b.hash).sort());
    });
});
