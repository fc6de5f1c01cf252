import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BUILT_IN_PROFILES, isToolAllowed, PROFILE_VERSION, ProfileSchema, WRITER_PROFILE } from '../../src/contract/profile';
import { exportProfiles, importProfiles, parseProfile } from '../../src/contract/profile-migrations';
import { listProfiles, resolveProfile } from '../../src/engine/agents/profiles';
import { ALL_TOOLS } from '../../src/tools/registry';

const fixture = (name: string) => JSON.parse(readFileSync(path.join(import.meta.dirname, '../fixtures/profiles', name), 'utf8'));

test('the built-ins are valid, distinct, and give each role its tools', () => {
    assert.deepEqual(BUILT_IN_PROFILES.map((p) => p.id), ['writer', 'researcher', 'editor', 'game-master', 'director', 'lore-keeper', 'memory-keeper', 'state-keeper']);
    for (const profile of BUILT_IN_PROFILES) assert.ok(ProfileSchema.safeParse(profile).success, profile.id);
    const names = ALL_TOOLS.map((t) => t.name);
    const allowed = (id: string) => names.filter((name) => isToolAllowed(BUILT_IN_PROFILES.find((p) => p.id === id)!, name));
    assert.ok(allowed('writer').includes('workspace.commit'));
    assert.ok(!allowed('writer').includes('dice.roll'), 'dice is off by default');
    assert.ok(allowed('game-master').includes('dice.roll'));
    assert.ok(!allowed('researcher').includes('workspace.commit'), 'the researcher never writes the chat');
    assert.deepEqual(BUILT_IN_PROFILES.find((p) => p.id === 'researcher')!.workspace.writableRoots, ['scratch', 'summaries']);
    assert.equal(BUILT_IN_PROFILES.find((p) => p.id === 'editor')!.presentation, 'background');
    // The agents around the reply never write the chat; the director writes its brief, the keepers their own.
    for (const id of ['director', 'lore-keeper', 'memory-keeper', 'state-keeper']) assert.ok(!allowed(id).includes('workspace.commit'), id);
    // State (issue 36): the writer and the game master change it, the agents around the reply read it, the state keeper writes it.
    for (const id of ['writer', 'game-master', 'state-keeper']) assert.ok(allowed(id).includes('state.patch'), id);
    for (const id of ['director', 'lore-keeper', 'memory-keeper']) assert.ok(allowed(id).includes('state.get') && !allowed(id).includes('state.set'), id);
    assert.ok(BUILT_IN_PROFILES.find((p) => p.id === 'director')!.workspace.writableRoots.includes('output'));
    assert.ok(allowed('lore-keeper').includes('worldinfo.propose'));
    assert.ok(!allowed('director').includes('worldinfo.propose'));
    assert.deepEqual(BUILT_IN_PROFILES.find((p) => p.id === 'memory-keeper')!.workspace.writableRoots, ['persist', 'scratch']);
});

test('a version-1 profile migrates to the current version and keeps its settings', () => {
    const parsed = parseProfile(fixture('v1-narrator.json'));
    assert.ok(parsed.ok, JSON.stringify(!parsed.ok && parsed.errors));
    assert.equal(parsed.migratedFrom, 1);
    assert.equal(parsed.profile.version, PROFILE_VERSION);
    assert.deepEqual(parsed.profile.tools.deny, ['workspace.search_files']);
    assert.equal(parsed.profile.tools.maxCallsPerTool['chat.search'], 5);
    assert.deepEqual(parsed.profile.model, { mode: 'current' });
    assert.equal(parsed.profile.systemPrompt, 'Narrate in the third person.');
    // A profile without a version field is read as version 1.
    const { version: _dropped, ...unversioned } = fixture('v1-narrator.json');
    assert.ok(parseProfile(unversioned).ok);
});

test('a version-2 profile migrates: every root stays visible, its writable roots are kept', () => {
    const parsed = parseProfile(fixture('v2-lore-scout.json'));
    assert.ok(parsed.ok, JSON.stringify(!parsed.ok && parsed.errors));
    assert.equal(parsed.migratedFrom, 2);
    assert.deepEqual(parsed.profile.workspace, { writableRoots: ['scratch', 'summaries'], visibleRoots: ['output', 'scratch', 'plan', 'summaries', 'persist'] });
});

test('writable roots must be visible', () => {
    const parsed = parseProfile({ ...WRITER_PROFILE, workspace: { visibleRoots: ['output'], writableRoots: ['output', 'persist'] } });
    assert.ok(!parsed.ok && parsed.errors.some((e) => e.path === 'workspace.writableRoots' && /persist/.test(e.message)));
});

test('validation names each bad field', () => {
    const bad = { ...WRITER_PROFILE, displayName: '', tools: { ...WRITER_PROFILE.tools, maxRounds: 0, allow: ['workspace.*', 'Not A Tool'] } };
    const parsed = parseProfile(bad);
    assert.equal(parsed.ok, false);
    const paths = !parsed.ok ? parsed.errors.map((e) => e.path).sort() : [];
    assert.deepEqual(paths, ['displayName', 'tools.allow.1', 'tools.maxRounds']);
    assert.equal(parseProfile({ ...WRITER_PROFILE, version: 99 }).ok, false);
    assert.equal(parseProfile('writer').ok, false);
    const foregroundWithoutCommit = parseProfile({ ...WRITER_PROFILE, tools: { ...WRITER_PROFILE.tools, deny: ['workspace.commit'] } });
    assert.ok(!foregroundWithoutCommit.ok && foregroundWithoutCommit.errors.some((e) => /workspace\.commit/.test(e.message)));
});

test('export and import round-trip; an invalid import is rejected whole with every error', () => {
    const custom = { ...WRITER_PROFILE, id: 'my-writer', displayName: 'My writer' };
    const text = exportProfiles([custom, BUILT_IN_PROFILES[3]!]);
    const back = importProfiles(text);
    assert.ok(back.ok);
    assert.deepEqual(back.profiles, [custom, BUILT_IN_PROFILES[3]]);

    const mixed = JSON.stringify({ kind: 'tavern-agent.profiles', version: 2, profiles: [custom, { ...custom, id: 'broken', tools: { ...custom.tools, maxCallsPerRun: -1 } }] });
    const rejected = importProfiles(mixed);
    assert.equal(rejected.ok, false);
    assert.deepEqual(!rejected.ok && rejected.errors.map((e) => `${e.profile}:${e.path}`), ['broken:tools.maxCallsPerRun']);
    assert.equal(importProfiles('{not json').ok, false);
    assert.equal(importProfiles(JSON.stringify([custom, custom])).ok, false, 'duplicate ids');
    assert.ok(importProfiles(JSON.stringify(custom)).ok, 'a single profile object is accepted');
});

test('listing merges built-ins, overrides and user profiles, and flags invalid ones', () => {
    const stored = {
        writer: { ...WRITER_PROFILE, tools: { ...WRITER_PROFILE.tools, maxRounds: 12 } },
        mine: { ...WRITER_PROFILE, id: 'mine', displayName: 'Mine' },
        broken: { id: 'broken', version: 2 },
    };
    const listing = listProfiles(stored);
    assert.deepEqual(listing.map((l) => l.id), ['writer', 'researcher', 'editor', 'game-master', 'director', 'lore-keeper', 'memory-keeper', 'state-keeper', 'broken', 'mine']);
    assert.equal(listing[0]!.overridden, true);
    assert.equal(listing[0]!.profile!.tools.maxRounds, 12);
    assert.equal(listing.find((l) => l.id === 'broken')!.profile, null);
    assert.ok(listing.find((l) => l.id === 'broken')!.errors.length > 0);
    assert.equal(resolveProfile('broken', stored).ok, false);
    assert.equal(resolveProfile('nope', stored).ok, false);
    assert.ok(resolveProfile('mine', stored).ok);
});
