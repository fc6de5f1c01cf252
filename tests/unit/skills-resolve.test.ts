// Unit tests of skill scope resolution: global → preset → profile → character, then visible / deny.
// Run: node --import tsx --test tests/unit/skills-resolve.test.ts
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { resolveSkills, scopeApplies, skillPool, skillVisible, type SkillRunContext } from '../../src/contract/skills-resolve';
import type { SkillIndexEntry, SkillScope } from '../../src/contract/skills';

function entry(name: string, scope: SkillScope, hashDigit: string): SkillIndexEntry {
    return {
        name,
        description: `${name} from ${JSON.stringify(scope)}`,
        scope,
        hash: hashDigit.repeat(64),
        files: [{ path: 'SKILL.md', bytes: 10 }],
        installedAt: 1,
    };
}

const context: SkillRunContext = { presetName: 'Default', profileId: 'writer', characterAvatar: 'seraphina.png' };
const all = { visible: ['*'], deny: [] };

describe('resolveSkills', () => {
    it('a later scope wins by name: global < preset < profile < character, whatever the index order', () => {
        const index = [
            entry('lore', { character: 'seraphina.png' }, 'd'),
            entry('lore', { profile: 'writer' }, 'c'),
            entry('lore', 'global', 'a'),
            entry('lore', { preset: 'Default' }, 'b'),
            entry('style', { preset: 'Default' }, 'e'),
            entry('style', 'global', 'f'),
            entry('maps', { profile: 'writer' }, '1'),
            entry('maps', 'global', '2'),
        ];
        const { skills, hiddenSkills } = resolveSkills(index, context, all);
        assert.deepEqual(
            skills.map((s) => [s.name, s.hash[0]]),
            [
                ['lore', 'd'],
                ['maps', '1'],
                ['style', 'e'],
            ],
        );
        assert.deepEqual(hiddenSkills, []);
    });

    it('scopes of other presets, profiles and characters do not apply', () => {
        const index = [entry('a', { preset: 'Other' }, 'a'), entry('b', { profile: 'researcher' }, 'b'), entry('c', { character: 'aria.png' }, 'c'), entry('d', 'global', 'd')];
        assert.deepEqual(
            resolveSkills(index, context, all).skills.map((s) => s.name),
            ['d'],
        );
        const noCharacter = resolveSkills([entry('c', { character: 'aria.png' }, 'c')], { ...context, characterAvatar: null }, all);
        assert.deepEqual(noCharacter.skills, []);
        const noPreset = resolveSkills([entry('a', { preset: 'Default' }, 'a')], { ...context, presetName: null }, all);
        assert.deepEqual(noPreset.skills, []);
    });

    it('visible names filter; deny wins over visible; hidden names are reported', () => {
        const index = [entry('x', 'global', 'a'), entry('y', 'global', 'b'), entry('z', 'global', 'c')];
        const denied = resolveSkills(index, context, { visible: ['*'], deny: ['x'] });
        assert.deepEqual(denied.skills.map((s) => s.name), ['y', 'z']);
        assert.deepEqual(denied.hiddenSkills, ['x']);
        const named = resolveSkills(index, context, { visible: ['y', 'x'], deny: ['x'] });
        assert.deepEqual(named.skills.map((s) => s.name), ['y']);
        assert.deepEqual(named.hiddenSkills, ['x', 'z']);
        const none = resolveSkills(index, context, { visible: [], deny: [] });
        assert.deepEqual(none.skills, []);
        assert.deepEqual(none.hiddenSkills, ['x', 'y', 'z']);
    });

    it('a denied skill of a later scope hides the name, not only the later copy', () => {
        const index = [entry('x', 'global', 'a'), entry('x', { character: 'seraphina.png' }, 'b')];
        const { skills, hiddenSkills } = resolveSkills(index, context, { visible: ['*'], deny: ['x'] });
        assert.deepEqual(skills, []);
        assert.deepEqual(hiddenSkills, ['x']);
    });

    it('a run skill carries name, description, scope, hash and file index, and nothing of the index bookkeeping', () => {
        const [skill] = resolveSkills([{ ...entry('x', 'global', 'a'), source: { kind: 'card', payloadHash: 'p' } }], context, all).skills;
        assert.deepEqual(Object.keys(skill!).sort(), ['description', 'files', 'hash', 'name', 'scope']);
    });
});

describe('scopeApplies and skillVisible', () => {
    it('global always applies; the others by exact name', () => {
        assert.equal(scopeApplies('global', { presetName: null, profileId: 'p', characterAvatar: null }), true);
        assert.equal(scopeApplies({ preset: 'default' }, context), false, 'preset names are case-sensitive');
        assert.equal(scopeApplies({ profile: 'writer' }, context), true);
        assert.equal(scopeApplies({ character: 'seraphina.png' }, context), true);
    });

    it('"*" in deny hides everything', () => {
        assert.equal(skillVisible('x', { visible: ['*'], deny: ['*'] }), false);
        assert.equal(skillVisible('x', { visible: ['x'], deny: [] }), true);
    });
});

describe('skillPool', () => {
    it('holds what a run of any profile may see in this chat; each profile resolves its own skills from it as from the index', () => {
        const index = [
            entry('lore', 'global', 'a'),
            entry('lore', { profile: 'researcher' }, 'b'),
            entry('maps', { profile: 'writer' }, 'c'),
            entry('style', { preset: 'Default' }, 'd'),
            entry('style', { preset: 'Other' }, 'e'),
            entry('bio', { character: 'seraphina.png' }, 'f'),
            entry('bio', { character: 'someone-else.png' }, '1'),
        ];
        const pool = skillPool(index, { presetName: 'Default', characterAvatar: 'seraphina.png' });
        assert.deepEqual(pool.map((s) => s.hash[0]).sort(), ['a', 'b', 'c', 'd', 'f']);
        for (const profileId of ['writer', 'researcher', 'editor']) {
            const rules = { visible: ['*'], deny: ['bio'] };
            assert.deepEqual(resolveSkills(pool, { ...context, profileId }, rules), resolveSkills(index, { ...context, profileId }, rules), profileId);
        }
    });
});
