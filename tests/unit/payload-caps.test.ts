// A card's skills payload at and past each of its limits (issue 39 §1): every cap refuses with its own code
// and names the limit; the scan the Install popup shows reads names without inflating any other file; and
// the compression ratio is checked on an archive's total, not only per entry.
// Run: node --import tsx --test tests/unit/payload-caps.test.ts
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ParsedSkill } from '../../src/contract/skills';
import { PAYLOAD_LIMITS, SKILL_LIMITS } from '../../src/skills/limits';
import { parseSkillPayload } from '../../src/skills/payload';
import { measurePayload } from '../../src/contract/card-payload';
import { scanSkillPayload } from '../../src/skills/payload-scan';
import { skillMd, zipOf } from '../fixtures/skills';

function inline(files: Array<{ path: string; content: string }>, skillName = '') {
    return { bundleFormat: 'inline-files-v1', skillName, files: files.map((file) => ({ ...file, encoding: 'utf8' })) };
}

function archive(zip: Uint8Array, fileName = 'skill.zip') {
    return { bundleFormat: 'ttskill-archive-base64-v1', fileName, contentBase64: Buffer.from(zip).toString('base64') };
}

const payload = (...items: unknown[]) => ({ version: 1, items });

/** Rewrites an entry's sizes in the central directory: what the directory declares is all a plan reads. */
function declare(zip: Uint8Array, name: string, sizes: { size?: number; compressedSize?: number }): Uint8Array {
    const copy = zip.slice();
    const view = new DataView(copy.buffer);
    for (let at = 0; at + 46 <= copy.length; at += 1) {
        if (view.getUint32(at, true) !== 0x02014b50) continue;
        const length = view.getUint16(at + 28, true);
        if (new TextDecoder().decode(copy.subarray(at + 46, at + 46 + length)) !== name) continue;
        if (sizes.compressedSize !== undefined) view.setUint32(at + 20, sizes.compressedSize, true);
        if (sizes.size !== undefined) view.setUint32(at + 24, sizes.size, true);
    }
    return copy;
}

async function refusal(value: unknown): Promise<{ code: string; message: string }> {
    const result = await parseSkillPayload(value);
    assert.ok(!result.ok, 'the payload is refused whole');
    return result.error;
}

async function onlySkill(value: unknown): Promise<ParsedSkill> {
    const result = await parseSkillPayload(value);
    assert.ok(result.ok, result.ok ? '' : result.error.message);
    assert.equal(result.value.length, 1);
    return result.value[0]!;
}

const SKILL = (name = 'lore') => ({ path: 'SKILL.md', content: skillMd(name, 'Keeps lore.') });

describe('payload caps, each with its code', () => {
    it('payload bytes: more text than the cap is refused before anything is decoded, on the page too', async () => {
        const big = payload(inline([SKILL(), { path: 'big.md', content: 'x'.repeat(PAYLOAD_LIMITS.maxPayloadChars) }]));
        const measured = measurePayload(big);
        assert.ok(!measured.ok);
        assert.equal(measured.error.code, 'skill.payload_too_large');
        assert.match(measured.error.message, /over the 32 MiB limit of a payload/);
        assert.equal((await refusal(big)).code, 'skill.payload_too_large');
    });

    it('skills per payload: 65 items, or 65 skills inside fewer items', async () => {
        const items = Array.from({ length: PAYLOAD_LIMITS.maxSkills + 1 }, (_, i) => inline([SKILL(`s${i}`)]));
        const error = await refusal(payload(...items));
        assert.equal(error.code, 'skill.too_many_skills');
        assert.match(error.message, /limit of 64 skills/);
        const folders = Object.fromEntries(Array.from({ length: PAYLOAD_LIMITS.maxSkills + 1 }, (_, i) => [`s${i}/SKILL.md`, skillMd(`s${i}`, 'One of many.')]));
        assert.equal((await refusal(payload(archive(zipOf(folders))))).code, 'skill.too_many_skills');
        const atCap = await parseSkillPayload(payload(...items.slice(1)));
        assert.ok(atCap.ok && atCap.value.length === PAYLOAD_LIMITS.maxSkills && atCap.value.every((skill) => !skill.error), 'exactly 64 skills are read');
    });

    it('files per skill: a skill of 1,001 files is refused, inline or zipped, before the scan or parse reads them', async () => {
        const files = [SKILL(), ...Array.from({ length: SKILL_LIMITS.maxFiles }, (_, i) => ({ path: `f/${i}.md`, content: 'x' }))];
        const skill = await onlySkill(payload(inline(files)));
        assert.equal(skill.code, 'skill.too_many_files');
        assert.match(skill.error!, /1001 files \(at most 1000 a skill\)/);
        const zipped = await onlySkill(payload(archive(zipOf(Object.fromEntries(files.map((file) => [file.path, file.content]))))));
        assert.equal(zipped.code, 'skill.too_many_files');
        const scan = await scanSkillPayload(payload(inline(files)));
        assert.ok(scan.ok);
        assert.equal(scan.value.skills[0]!.code, 'skill.too_many_files');
    });

    it('front matter bytes and keys', async () => {
        const long = await onlySkill(payload(inline([{ path: 'SKILL.md', content: skillMd('lore', 'Keeps lore.', 'Body.', `notes: ${'n'.repeat(PAYLOAD_LIMITS.maxFrontMatterBytes)}\n`) }])));
        assert.equal(long.code, 'skill.front_matter_too_large');
        assert.match(long.error!, /over the 16 KiB limit of front matter/);
        const keys = Array.from({ length: PAYLOAD_LIMITS.maxFrontMatterKeys - 1 }, (_, i) => `k${i}: v\n`).join('');
        const many = await onlySkill(payload(inline([{ path: 'SKILL.md', content: skillMd('lore', 'Keeps lore.', 'Body.', keys) }])));
        assert.equal(many.code, 'skill.front_matter_keys');
        assert.match(many.error!, /65 fields, over the limit of 64/);
        const fewer = await onlySkill(payload(inline([{ path: 'SKILL.md', content: skillMd('lore', 'Keeps lore.', 'Body.', keys.split('\n').slice(1).join('\n')) }])));
        assert.equal(fewer.error, undefined, '64 fields are fine');
    });

    it('YAML alias expansion: a billion laughs stops at the alias limit', async () => {
        const laughs = ['a: &a [x, x, x, x, x, x, x, x, x, x]', ...'bcdefghi'.split('').map((name, i) => `${name}: &${name} [${Array(10).fill(`*${'abcdefghi'[i]}`).join(', ')}]`)].join('\n');
        const started = performance.now();
        const skill = await onlySkill(payload(inline([{ path: 'SKILL.md', content: skillMd('lore', 'Keeps lore.', 'Body.', `${laughs}\n`) }])));
        assert.equal(skill.code, 'skill.yaml_aliases');
        assert.match(skill.error!, /past the limit of 100/);
        assert.ok(performance.now() - started < 1_000, 'refused before the expansion grows');
    });

    it('total unpacked bytes: nine archives declaring 15 MiB each pass one by one and fail together', async () => {
        const zip = declare(zipOf({ 'SKILL.md': skillMd('big', 'Declares much.'), 'data.bin': 'tiny' }), 'data.bin', { size: 15 * 1024 * 1024, compressedSize: 200 * 1024 });
        const one = await scanSkillPayload(payload(archive(zip)));
        assert.ok(one.ok, 'one archive is within the payload total');
        const error = await refusal(payload(...Array.from({ length: 9 }, () => archive(zip))));
        assert.equal(error.code, 'skill.unpacked_too_large');
        assert.match(error.message, /more than 128 MiB, the limit of a payload/);
    });

    it('the 100:1 ratio holds on an archive\'s total: many small entries cannot add up to a bomb', async () => {
        const small = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`zeros/${i}.md`, new Uint8Array(SKILL_LIMITS.ratioCheckFromBytes - 1)]));
        const skill = await onlySkill(payload(archive(zipOf({ 'SKILL.md': skillMd('bomb', 'Small pieces.'), ...small }), 'bomb.zip')));
        assert.equal(skill.code, 'skill.compression_ratio');
        assert.match(skill.error!, /bomb\.zip: is compressed \d+× over all its entries \(at most 100× in all/);
        const entry = await onlySkill(payload(archive(zipOf({ 'SKILL.md': skillMd('bomb', 'One piece.'), 'zeros.md': new Uint8Array(1024 * 1024) }), 'one.zip')));
        assert.equal(entry.code, 'skill.compression_ratio');
        assert.match(entry.error!, /entry "zeros\.md" is compressed/, 'a single entry is named');
    });
});

describe('the scan before Install', () => {
    it('gives the hash, names, descriptions, files and scripts without inflating anything but SKILL.md', async () => {
        // data.md lies: it declares 10 bytes and holds 1 MiB. Only the full parse inflates it, and refuses it.
        const lying = declare(zipOf({ 'SKILL.md': skillMd('dice', 'Rolls dice.'), 'scripts/roll.js': 'export default 1;', 'data.md': new Uint8Array(1024 * 1024).fill(65) }), 'data.md', { size: 10 });
        const scan = await scanSkillPayload(payload(archive(lying), inline([SKILL('lore'), { path: 'notes.md', content: 'Notes.' }], 'lore-book')));
        assert.ok(scan.ok);
        assert.match(scan.value.hash, /^[0-9a-f]{64}$/);
        assert.deepEqual(
            scan.value.skills.map((skill) => [skill.name, skill.description, skill.files, skill.error]),
            [
                ['dice', 'Rolls dice.', 3, undefined],
                ['lore', 'Keeps lore.', 2, undefined],
            ],
        );
        assert.deepEqual(scan.value.skills[0]!.scripts, [{ path: 'scripts/roll.js', bytes: 17 }]);
        assert.deepEqual(scan.value.skills[1]!.warnings, ['the card calls it "lore-book"; its SKILL.md names it "lore"']);
        const parsed = await parseSkillPayload(payload(archive(lying)));
        assert.ok(parsed.ok);
        assert.match(parsed.value[0]!.error!, /entry "data\.md" does not match its declared size/);
    });

    it('refuses in the scan what sizes alone refuse, so the popup never offers it', async () => {
        const scan = await scanSkillPayload(payload(inline([{ path: 'SKILL.md', content: skillMd('lore', 'x'.repeat(SKILL_LIMITS.maxDescriptionChars + 1)) }])));
        assert.ok(scan.ok);
        assert.match(scan.value.skills[0]!.error!, /over the 1024 a description may have/);
        const hashes = await Promise.all([scanSkillPayload(payload(inline([SKILL()]))), scanSkillPayload(payload(inline([SKILL()])))]);
        assert.ok(hashes[0].ok && hashes[1].ok && hashes[0].value.hash === hashes[1].value.hash, 'one payload, one hash');
    });
});
