// The skill manager's logic, apart from its components: grouping by scope, the file tree, when Install is
// allowed and what it sends, and the run summary's frozen skill set.
// Run: node --import tsx --test tests/unit/skills-manager.test.ts
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { JournalEvent } from '../../src/contract/events';
import { scriptFilesOf, type SkillListing, type SkillPreview } from '../../src/contract/skills';
import type { SkillsService } from '../../src/contract/skills-service';
import { buildTree } from '../../src/ui/skills/file-tree';
import { planState, runImport, type ImportUnit } from '../../src/ui/skills/import-plan';
import { groupByScope, isRunnableScript, scopeLabel, targetScopes } from '../../src/ui/skills/skill-scope';
import { TimelineModel } from '../../src/ui/timeline/timeline-model';

const listing = (name: string, scope: SkillListing['scope']): SkillListing => ({ name, description: name, scope, files: ['SKILL.md'] });
const preview = (name: string, conflict: SkillPreview['conflict'], error?: string): SkillPreview => ({
    name, description: '', files: 1, bytes: 1, conflict, warnings: [], ...(error ? { error } : {}),
});
const unit = (previews: SkillPreview[] | null): ImportUnit => ({ label: 'x.zip', input: new Blob(['x']), previews, error: null });

test('skills are grouped in resolution order, global → preset → profile → character, names sorted', () => {
    const groups = groupByScope([
        listing('z', { character: 'a.png' }),
        listing('b', 'global'),
        listing('p', { profile: 'writer' }),
        listing('a', 'global'),
        listing('d', { preset: 'Default' }),
    ]);
    assert.deepEqual(groups.map((group) => group.key), ['global', 'preset:Default', 'profile:writer', 'character:a.png']);
    assert.deepEqual(groups[0]!.skills.map((skill) => skill.name), ['a', 'b']);
});

test('a character scope is named by the open character, any other by its avatar file', () => {
    const owners = { character: { avatar: 'sera.png', name: 'Seraphina' }, preset: 'Default' };
    assert.equal(scopeLabel({ character: 'sera.png' }, owners), 'Character Seraphina');
    assert.equal(scopeLabel({ character: 'other.png' }, owners), 'Character other.png');
    assert.deepEqual(targetScopes(owners, ['writer']), ['global', { character: 'sera.png' }, { preset: 'Default' }, { profile: 'writer' }]);
    assert.deepEqual(targetScopes({ character: null, preset: null }, []), ['global'], 'no chat: only global and profiles');
});

test('the file tree leads with SKILL.md and nests folders', () => {
    const tree = buildTree(['scripts/run.sh', 'references/b.md', 'SKILL.md', 'references/a.md', 'README.md']);
    assert.deepEqual(tree.files, ['SKILL.md', 'README.md']);
    assert.deepEqual(tree.folders.map((folder) => [folder.name, folder.files]), [
        ['references', ['references/a.md', 'references/b.md']],
        ['scripts', ['scripts/run.sh']],
    ]);
});

test('Install waits for the preview and for a choice on every changed skill; refused skills need none', () => {
    assert.equal(planState([unit(null)], {}).ready, false, 'still previewing');
    assert.equal(planState([unit([preview('a', 'new')])], {}).ready, true);
    const changed = [unit([preview('a', 'new'), preview('b', 'different'), preview('c', 'different', 'SKILL.md: name is required')])];
    assert.deepEqual(planState(changed, {}), { ready: false, undecided: 1 });
    assert.deepEqual(planState(changed, { '0:b': 'skip' }), { ready: true, undecided: 0 });
    assert.equal(planState([unit([preview('c', 'new', 'refused')])], {}).ready, false, 'nothing installable');
});

test('Install sends each unit with its per-skill choices by name', async () => {
    const calls: unknown[] = [];
    const service = {
        async import(_files: unknown, options: unknown) {
            calls.push(options);
            return [];
        },
    } as unknown as SkillsService;
    const units = [unit([preview('a', 'different'), preview('b', 'different'), preview('n', 'new')]), unit([preview('a', 'same')])];
    await runImport(service, units, { '0:a': 'replace', '0:b': 'skip' }, { profile: 'writer' });
    assert.deepEqual(calls, [
        { scope: { profile: 'writer' }, conflict: { a: 'replace', b: 'skip' } },
        { scope: { profile: 'writer' }, conflict: {} },
    ]);
});

test('the run summary carries the skill set journaled at its start', () => {
    const model = new TimelineModel('r1');
    const skills = [{ name: 'lore-keeper', scope: 'global' as const, hash: 'a'.repeat(64) }];
    const event: JournalEvent = { v: 1, runId: 'r1', seq: 0, at: 1, type: 'skills-resolve', payload: { skills } };
    assert.equal(model.summary.skills, null, 'none journaled yet');
    model.apply([event]);
    assert.deepEqual(model.summary.skills, skills);
    assert.equal(model.rows.length, 0, 'shown in the header, not as a row');
});

test("a skill's scripts are its files under scripts/; only JavaScript modules are ever run", () => {
    const files = [
        { path: 'SKILL.md', bytes: 90 },
        { path: 'scripts/roll.js', bytes: 40 },
        { path: 'scripts/lib/table.js', bytes: 12 },
        { path: 'scripts/build.sh', bytes: 7 },
        { path: 'references/scripts/note.md', bytes: 3 },
    ];
    assert.deepEqual(scriptFilesOf(files), [
        { path: 'scripts/roll.js', bytes: 40 },
        { path: 'scripts/lib/table.js', bytes: 12 },
        { path: 'scripts/build.sh', bytes: 7 },
    ]);
    assert.deepEqual(scriptFilesOf(files).filter((file) => isRunnableScript(file.path)).map((file) => file.path), ['scripts/roll.js', 'scripts/lib/table.js']);
});
