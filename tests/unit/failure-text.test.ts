import { test } from 'node:test';
import assert from 'node:assert/strict';
import { failureText, storedSentence } from '../../src/i18n/failure-text';

test('a model that answers without tools is told with the three ways out', () => {
    const text = failureText({ code: 'model.tool_call_required', message: 'The model answered in plain text instead of using tools.' });
    assert.match(text, /output\/direct_output\.md/);
    assert.match(text, /model or profile that can call tools/);
    assert.match(text, /\/agent pipeline before=director reply=sillytavern/);
    assert.match(text, /Agent Mode off/);
});

test("a missing agent profile is said in the reader's words, its name kept", () => {
    const text = failureText({ code: 'profile.not_found', message: 'The agent profile "<b>bold</b>" does not exist. Pick another profile in the Tavern Agent panel or with /agent profile.' });
    assert.equal(text, 'This agent profile does not exist. Pick another profile in the Tavern Agent panel or with /agent profile. (<b>bold</b>)');
});

test('other failures say their stored sentence; unknown sentences pass through', () => {
    assert.equal(failureText({ code: 'run.cancelled', message: 'The run was stopped.' }), 'The run was stopped.');
    assert.equal(storedSentence('A sentence nobody translated.'), 'A sentence nobody translated.');
});
