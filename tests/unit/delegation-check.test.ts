import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BUILT_IN_PROFILES, type Profile } from '../../src/contract/profile';
import { delegationTargets, mayCall, unknownCallerWarnings } from '../../src/ui/profiles/delegation-check';

test('an allowedCallers entry that names no profile is flagged; "*" and known ids are not', () => {
    const known = ['writer', 'researcher', 'editor'];
    assert.deepEqual(unknownCallerWarnings('*, writer', known), []);
    const warnings = unknownCallerWarnings('writer, wrtier, ,game-master', known);
    assert.equal(warnings.length, 2);
    assert.match(warnings[0]!, /wrtier$/);
    assert.match(warnings[1]!, /game-master$/);
});

test('a caller may call a target that is callable, allowed as a sub-agent, and lists it or "*"', () => {
    const target = (id: string, delegation: Partial<Profile['delegation']>): Profile => {
        const base = BUILT_IN_PROFILES[1]!;
        return { ...base, id, delegation: { ...base.delegation, ...delegation } };
    };
    const open = target('open', { callable: true, allowAsSubagent: true, allowedCallers: ['*'] });
    const onlyWriter = target('only-writer', { callable: true, allowAsSubagent: true, allowedCallers: ['writer'] });
    const notCallable = target('hidden', { callable: false, allowAsSubagent: true, allowedCallers: ['*'] });
    const notSub = target('not-sub', { callable: true, allowAsSubagent: false, allowedCallers: ['*'] });
    assert.ok(mayCall('writer', onlyWriter));
    assert.ok(!mayCall('game-master', onlyWriter));
    assert.ok(!mayCall('open', open), 'never itself');
    assert.deepEqual(delegationTargets('writer', [open, onlyWriter, notCallable, notSub]).map((p) => p.id), ['open', 'only-writer']);
});
