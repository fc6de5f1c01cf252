// Run: node --import tsx --test tests/unit/tool-result-text.test.ts
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toolError } from '../../src/contract/errors';
import { toolResultText } from '../../src/contract/tool-result-text';
import { modelFacingText } from '../../src/engine/projection/model-notes';

/** What the engine sends the model for an outcome (below the output cap). */
const engineToolResultText = (outcome: Parameters<typeof modelFacingText>[0]) => modelFacingText(outcome, 'tool-results/call-0001.json');
import { failure, success } from '../../src/tools/tool';
import { storedToolResultText } from '../../src/ui/timeline/format';

const outcomes = [
    success('line 1\nline 2', { x: 1 }),
    success(''),
    failure(toolError('workspace.file_not_found', 'No file "scratch/a.md".', 'List the folder first.')),
];

test('the contract gives the text the engine sends the model, for results and errors', () => {
    for (const outcome of outcomes) assert.equal(toolResultText(outcome), engineToolResultText(outcome));
    assert.equal(toolResultText(outcomes[2]!), 'ERROR workspace.file_not_found: No file "scratch/a.md".\nHint: List the folder first.');
});

test('the timeline shows a stored result (the outcome as JSON) exactly as the model read it', () => {
    for (const outcome of outcomes) assert.equal(storedToolResultText(JSON.stringify(outcome)), engineToolResultText(outcome));
});

test('a stored result that is not an outcome is shown as stored', () => {
    assert.equal(storedToolResultText('not json'), 'not json');
    assert.equal(storedToolResultText('{"something":"else"}'), '{"something":"else"}');
});
