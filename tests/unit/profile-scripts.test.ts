import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EDITOR_PROFILE, isScriptTool, isToolAllowed, WRITER_PROFILE } from '../../src/contract/profile';
import { parseProfile } from '../../src/contract/profile-migrations';
import { draftOf, errorsAt, rawOf, unplacedErrors } from '../../src/ui/profiles/profile-draft';

// The profile editor's Scripts setting (issue 35): the field's value round-trips through the draft, a bad
// value is refused with an error the field claims, and the script tools are the two it governs.

test('the Scripts setting round-trips through the editor draft', () => {
    for (const scripts of ['off', 'skills', 'all'] as const) {
        const draft = draftOf({ ...WRITER_PROFILE, scripts });
        const parsed = parseProfile(rawOf(draft));
        assert.ok(parsed.ok);
        assert.equal(parsed.profile.scripts, scripts);
    }
});

test('an unknown Scripts value is refused, and the error sits by the Scripts field rather than above the form', () => {
    const parsed = parseProfile({ ...WRITER_PROFILE, scripts: 'sometimes' });
    assert.equal(parsed.ok, false);
    const errors = parsed.ok ? [] : parsed.errors;
    assert.deepEqual(errorsAt(errors, 'scripts').map((error) => error.path), ['scripts']);
    assert.deepEqual(unplacedErrors(errors), []);
});

test('the script tools are the ones the setting governs, whatever the allow list says', () => {
    assert.equal(isScriptTool('script.run'), true);
    assert.equal(isScriptTool('skill.run_script'), true);
    assert.equal(isScriptTool('skill.read'), false);
    assert.equal(isScriptTool('toString'), false, 'not an inherited name');
    const everything = { ...EDITOR_PROFILE, tools: { ...EDITOR_PROFILE.tools, allow: ['*'], deny: [] } };
    assert.equal(isToolAllowed({ ...everything, scripts: 'off' }, 'skill.run_script'), false);
    assert.equal(isToolAllowed({ ...everything, scripts: 'skills' }, 'script.run'), false);
    assert.equal(isToolAllowed({ ...everything, scripts: 'all' }, 'script.run'), true);
});
