// Skill packages: front matter, archives (one or many skills), loose SKILL.md files, picked folders,
// hostile archives refused whole, and the content hash.
// Run: node --import tsx --test tests/unit/skills-parse.test.ts
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { zipSync } from 'fflate';
import type { ParsedSkill } from '../../src/contract/skills';
import { parseFrontMatter } from '../../src/skills/front-matter';
import { parseSkillSources } from '../../src/skills/parse-sources';
import { judgeSkills } from '../../src/host/skills/skill-previews';
import { DICE_RULES, LORE_KEEPER, skillMd, source, zipOf } from '../fixtures/skills';

/** Rewrites an entry's uncompressed size in the central directory, as a forged archive would. */
function setDeclaredSize(zip: Uint8Array, name: string, size: number): void {
    const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
    for (let at = 0; at + 46 <= zip.length; at += 1) {
        if (view.getUint32(at, true) !== 0x02014b50) continue;
        const length = view.getUint16(at + 28, true);
        if (new TextDecoder().decode(zip.subarray(at + 46, at + 46 + length)) === name) view.setUint32(at + 24, size, true);
    }
}

function only(parsed: ParsedSkill[]): ParsedSkill {
    assert.equal(parsed.length, 1, JSON.stringify(parsed.map((p) => p.error ?? p.name)));
    return parsed[0]!;
}

function refusal(parsed: ParsedSkill[]): string {
    const skill = only(parsed);
    assert.equal(skill.bundle, null, 'nothing of a refused skill is kept');
    assert.ok(skill.error, 'a refused skill says why');
    return skill.error;
}

describe('front matter', () => {
    it('reads name and description, keeps unknown fields, and grants nothing', () => {
        const text = skillMd('lore-keeper', 'Keeps lore.', '', 'license: MIT\nmetadata:\n  author: Ana\n  tags: [lore]\nallowed-tools: [Bash]\ncolour: blue\n');
        const parsed = parseFrontMatter(text, 'lore-keeper/SKILL.md');
        assert.ok(parsed.ok);
        assert.equal(parsed.value.name, 'lore-keeper');
        assert.equal(parsed.value.description, 'Keeps lore.');
        assert.equal(parsed.value.fields.colour, 'blue');
        assert.deepEqual(parsed.value.fields.metadata, { author: 'Ana', tags: ['lore'] });
        assert.deepEqual(parsed.value.warnings, ['field "allowed-tools" ignored: permissions come from the profile']);
    });

    it('names the file and the field when name or description is missing or bad', () => {
        const cases: Array<[string, RegExp]> = [
            ['---\ndescription: x\n---\n', /^my-skill\/SKILL\.md: front matter field "name" is missing$/],
            ['---\nname: my-skill\n---\n', /^my-skill\/SKILL\.md: front matter field "description" is missing$/],
            ['---\nname: my-skill\ndescription: "   "\n---\n', /field "description" must be text that is not blank/],
            ['---\nname: My Skill\ndescription: x\n---\n', /field "name" must be 1–128 lowercase.*"My Skill"/],
            ['# no front matter\n', /front matter is missing/],
            ['---\nname: [unclosed\n---\n', /not valid YAML/],
        ];
        for (const [text, expected] of cases) {
            const parsed = parseFrontMatter(text, 'my-skill/SKILL.md');
            assert.ok(!parsed.ok, text);
            assert.match(parsed.error, expected);
        }
    });

    it('warns past 64 characters and refuses past 128', () => {
        const long = parseFrontMatter(skillMd('a'.repeat(100), 'x'), 'SKILL.md');
        assert.ok(long.ok);
        assert.match(long.value.warnings.join(), /longer than 64/);
        assert.ok(!parseFrontMatter(skillMd('a'.repeat(129), 'x'), 'SKILL.md').ok);
    });
});

describe('sources', () => {
    it('reads a zip of two skills, one folder each', async () => {
        const parsed = await parseSkillSources([source('two.zip', zipOf({ ...LORE_KEEPER, ...DICE_RULES, '__MACOSX/lore-keeper/._SKILL.md': 'junk', 'lore-keeper/.DS_Store': 'junk' }))]);
        assert.deepEqual(parsed.map((p) => p.name).sort(), ['dice-rules', 'lore-keeper']);
        const lore = parsed.find((p) => p.name === 'lore-keeper')!.bundle!;
        assert.deepEqual(lore.files.map((f) => f.path), ['SKILL.md', 'references/places.md'], '__MACOSX and .DS_Store are left out');
        assert.match(lore.hash, /^[0-9a-f]{64}$/);
        assert.equal(lore.description, 'Keeps the lore of the world straight.');
    });

    it('reads a zip with SKILL.md at its root', async () => {
        const skill = only(await parseSkillSources([source('lore.zip', zipOf({ 'SKILL.md': LORE_KEEPER['lore-keeper/SKILL.md'], 'references/places.md': 'x' }))]));
        assert.equal(skill.bundle?.name, 'lore-keeper');
        assert.deepEqual(skill.bundle?.files.map((f) => f.path), ['SKILL.md', 'references/places.md']);
    });

    it('reads a single SKILL.md, and any .md that opens with front matter', async () => {
        const parsed = await parseSkillSources([source('SKILL.md', skillMd('one', 'First.')), source('notes.md', skillMd('two', 'Second.')), source('plain.md', '# just notes')]);
        assert.equal(parsed[0]!.bundle?.name, 'one');
        assert.equal(parsed[1]!.bundle?.name, 'two');
        assert.deepEqual(parsed[1]!.bundle?.files.map((f) => f.path), ['SKILL.md']);
        assert.match(parsed[2]!.error ?? '', /^plain\.md: not a skill/);
    });

    it('reads a picked folder given as relative paths, with scripts and binaries flagged', async () => {
        const parsed = await parseSkillSources([
            source('lore-keeper/SKILL.md', LORE_KEEPER['lore-keeper/SKILL.md']),
            source('lore-keeper/references/places.md', LORE_KEEPER['lore-keeper/references/places.md']),
            source('lore-keeper/scripts/build.sh', 'echo never run\n'),
            source('lore-keeper/assets/map.png', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 0xff])),
        ]);
        const skill = only(parsed);
        assert.deepEqual(skill.bundle?.files.map((f) => [f.path, f.encoding]), [
            ['SKILL.md', 'utf8'],
            ['assets/map.png', 'base64'],
            ['references/places.md', 'utf8'],
            ['scripts/build.sh', 'utf8'],
        ]);
        assert.deepEqual(skill.warnings, ['holds scripts (they run when a profile allows scripts)', 'holds binary files']);
    });

    it('gives the same hash to the same files from a zip and from a folder', async () => {
        const fromZip = only(await parseSkillSources([source('lore.zip', zipOf(LORE_KEEPER))]));
        const fromFolder = only(await parseSkillSources(Object.entries(LORE_KEEPER).map(([path, text]) => source(path, text))));
        assert.equal(fromZip.bundle?.hash, fromFolder.bundle?.hash);
        const changed = only(await parseSkillSources([source('lore.zip', zipOf({ ...LORE_KEEPER, 'lore-keeper/references/places.md': 'changed' }))]));
        assert.notEqual(changed.bundle?.hash, fromZip.bundle?.hash);
    });

    it('refuses a skill with a bad SKILL.md, naming the file and field, while its neighbour imports', async () => {
        const parsed = await parseSkillSources([source('two.zip', zipOf({ ...DICE_RULES, 'my-skill/SKILL.md': '---\ndescription: x\n---\n' }))]);
        const bad = parsed.find((p) => p.name === 'my-skill')!;
        assert.equal(bad.bundle, null);
        assert.equal(bad.error, 'my-skill/SKILL.md: front matter field "name" is missing');
        assert.ok(parsed.find((p) => p.name === 'dice-rules')?.bundle);
    });
});

describe('hostile archives are refused whole, naming the entry', () => {
    const base = { 'SKILL.md': skillMd('evil', 'Looks fine.') };

    it('refuses "..", absolute paths, backslashes and drive prefixes', async () => {
        for (const [name, reason] of [
            ['../x', /entry "\.\.\/x" climbs out/],
            ['/etc/passwd', /entry "\/etc\/passwd" is an absolute path/],
            ['references\\a.md', /entry "references\\\\a\.md" holds a backslash/],
            ['C:/x.md', /entry "C:\/x\.md" starts with a drive prefix/],
        ] as const) {
            const error = refusal(await parseSkillSources([source('evil.zip', zipOf({ ...base, [name]: 'x' }))]));
            assert.match(error, reason);
            assert.ok(error.startsWith('evil.zip: '), error);
        }
    });

    it('refuses a symlink entry', async () => {
        const link: [Uint8Array, { os: number; attrs: number }] = [new TextEncoder().encode('/etc/passwd'), { os: 3, attrs: (0o120777 << 16) >>> 0 }];
        const error = refusal(await parseSkillSources([source('evil.zip', zipOf({ ...base, 'references/link': link }))]));
        assert.match(error, /entry "references\/link" is a symbolic link/);
    });

    it('refuses an entry compressed more than 100× before inflating it', async () => {
        const bomb = zipSync({ 'SKILL.md': new TextEncoder().encode(base['SKILL.md']), 'references/zeros.md': [new Uint8Array(8 * 1024 * 1024), { level: 9 }] });
        const error = refusal(await parseSkillSources([source('bomb.zip', bomb)]));
        assert.match(error, /entry "references\/zeros\.md" is compressed \d+× \(at most 100×/);
    });

    it('refuses entries whose declared size lies, without inflating them fully', async () => {
        const bomb = new Uint8Array(64 * 1024 * 1024);
        for (const [declared, reason] of [
            [100, /entry "references\/a\.md" holds more compressed data than its declared size allows/],
            [70_000, /entry "references\/a\.md" (does not match its declared size|inflates to far more than the archive declares)/],
        ] as const) {
            const zip = zipSync({ 'SKILL.md': new TextEncoder().encode(base['SKILL.md']), 'references/a.md': [bomb, { level: 9 }] });
            setDeclaredSize(zip, 'references/a.md', declared);
            assert.match(refusal(await parseSkillSources([source('liar.zip', zip)])), reason);
        }
    });

    it('refuses a skill of more than 1,000 files', async () => {
        const files: Record<string, string> = { ...base };
        for (let i = 0; i < 1000; i += 1) files[`references/${i}.md`] = `${i}`;
        const error = refusal(await parseSkillSources([source('many.zip', zipOf(files))]));
        assert.match(error, /holds 1001 files \(at most 1000 a skill\)/);
    });

    it('refuses a file over 16 MiB, naming it', async () => {
        const big = new Uint8Array(16 * 1024 * 1024 + 1).map((_, i) => (i * 7919) % 251);
        const error = refusal(await parseSkillSources([source('big.zip', zipSync({ 'SKILL.md': new TextEncoder().encode(base['SKILL.md']), 'assets/big.bin': [big, { level: 0 }] }))]));
        assert.match(error, /entry "assets\/big\.bin" is 16,777,217 bytes, over the 16 MiB limit/);
    });

    it('refuses a SKILL.md over 1 MiB and archives that are not zips', async () => {
        const huge = skillMd('huge', 'Big.', Array.from({ length: 200_000 }, (_, i) => (i * 2654435761 % 1e9).toString(36)).join(' '));
        assert.match(refusal(await parseSkillSources([source('huge.zip', zipOf({ 'SKILL.md': huge }))])), /huge\.zip: SKILL\.md: [\d,]+ bytes is over the 1\.0 MiB limit of SKILL\.md/);
        assert.match(refusal(await parseSkillSources([source('fake.zip', 'not a zip at all')])), /^fake\.zip: is not a zip archive/);
    });
});

describe('bounds and replacements (issue 39 §9)', () => {
    it('a description over 1,024 characters and a file path over 512 refuse the skill, naming the limit', async () => {
        const long = parseFrontMatter(skillMd('wordy', 'd'.repeat(1025)), 'wordy/SKILL.md');
        assert.ok(!long.ok && /1025 characters, over the 1024/.test(long.error));
        assert.ok(parseFrontMatter(skillMd('wordy', 'd'.repeat(1024)), 'wordy/SKILL.md').ok);
        const deep = `${'a/'.repeat(300)}x.md`;
        const [skill] = await parseSkillSources([source('deep.zip', zipOf({ 'deep/SKILL.md': skillMd('deep', 'Deep.'), [`deep/${deep}`]: 'x' }))]);
        assert.match(skill!.error ?? '', /longer than 512 characters/);
    });

    it("a card's skill named like one of yours says it replaces yours in that character's chats, and is installed beside it", async () => {
        const [parsed] = await parseSkillSources([source('SKILL.md', skillMd('house-style', 'The card author’s style.'))]);
        const mine = { name: 'house-style', description: 'Mine.', scope: 'global' as const, hash: 'a'.repeat(64), files: [], installedAt: 1 };
        const [judged] = judgeSkills([parsed!], [mine], { character: 'seraphina.png' });
        assert.equal(judged!.preview.conflict, 'new', 'nothing of the same name in the character scope: installed beside yours');
        assert.deepEqual(judged!.preview.replaces, ['global']);
        const [alone] = judgeSkills([parsed!], [], { character: 'seraphina.png' });
        assert.equal(alone!.preview.replaces, undefined);
    });
});
