import { test } from 'node:test';
import assert from 'node:assert/strict';
import { groupOf, groupTools, setGroupAllowed, setToolAllowed, toolAllowed } from '../../src/ui/profiles/capability-groups';
import { ALL_TOOLS } from '../../src/tools/registry';
import { WRITER_PROFILE } from '../../src/contract/profile';

const known = ALL_TOOLS.map((tool) => tool.name);

test('every registry tool falls into a group by its name; new tools fall in by prefix', () => {
    assert.equal(groupOf('chat.search'), 'context');
    assert.equal(groupOf('worldinfo.read_activated'), 'context');
    assert.equal(groupOf('worldinfo.search'), 'context', 'a lore tool added later lands in context');
    assert.equal(groupOf('worldinfo.propose'), 'context');
    assert.equal(groupOf('workspace.read_file'), 'workspace-read');
    assert.equal(groupOf('workspace.write_file'), 'workspace-write');
    assert.equal(groupOf('workspace.commit'), 'control');
    assert.equal(groupOf('task.return'), 'control');
    assert.equal(groupOf('agent.delegate'), 'agents');
    assert.equal(groupOf('skill.read'), 'skills');
    assert.equal(groupOf('dice.roll'), 'dice');
    assert.equal(groupOf('weather.today'), 'extensions');
    const grouped = groupTools(known);
    assert.deepEqual(grouped.flatMap((g) => g.tools).sort(), [...known].sort(), 'every tool is shown once');
    assert.equal(grouped[0]!.group, 'context');
});

test('a glob is reflected in its members', () => {
    const writer = { allow: WRITER_PROFILE.tools.allow, deny: WRITER_PROFILE.tools.deny };
    assert.equal(toolAllowed(writer, 'chat.search'), true, 'chat.* checks chat.search');
    assert.equal(toolAllowed(writer, 'dice.roll'), false);
    assert.equal(toolAllowed({ allow: ['*'], deny: ['workspace.*'] }, 'workspace.commit'), false, 'deny wins');
});

test('unchecking a member of an allowed glob denies it by name; checking it again removes that', () => {
    const start = { allow: ['chat.*', 'workspace.*'], deny: [] };
    const off = setToolAllowed(start, 'chat.search', false, known);
    assert.deepEqual(off, { allow: ['chat.*', 'workspace.*'], deny: ['chat.search'] });
    assert.equal(toolAllowed(off, 'chat.search'), false);
    assert.equal(toolAllowed(off, 'chat.read_messages'), true, 'the rest of the glob is unchanged');
    assert.deepEqual(setToolAllowed(off, 'chat.search', true, known), start);
});

test('checking a tool a glob denies keeps the glob for the others', () => {
    const start = { allow: ['*'], deny: ['chat.*'] };
    const on = setToolAllowed(start, 'chat.search', true, known);
    assert.equal(toolAllowed(on, 'chat.search'), true);
    assert.equal(toolAllowed(on, 'chat.read_messages'), false);
});

test('checking a tool nothing allows adds it by name; unchecking removes it; unknown patterns stay', () => {
    const start = { allow: ['chat.*', 'old.tool'], deny: [] };
    const on = setToolAllowed(start, 'dice.roll', true, known);
    assert.deepEqual(on.allow, ['chat.*', 'old.tool', 'dice.roll']);
    assert.deepEqual(setToolAllowed(on, 'dice.roll', false, known), start);
});

test('a group switches all its tools', () => {
    const context = known.filter((name) => name.startsWith('chat.') || name.startsWith('worldinfo.'));
    const off = setGroupAllowed({ allow: ['chat.*', 'worldinfo.*'], deny: [] }, context, false, known);
    assert.ok(context.every((name) => !toolAllowed(off, name)));
    assert.deepEqual(off, { allow: [], deny: [] }, 'globs whose every tool is off are dropped, not denied one by one');
    const on = setGroupAllowed(off, ['chat.read_messages', 'chat.search'], true, known);
    assert.ok(toolAllowed(on, 'chat.search') && toolAllowed(on, 'chat.read_messages'));
});
