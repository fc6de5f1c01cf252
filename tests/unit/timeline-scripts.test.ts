import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { EventPayloads, EventType, JournalEvent } from '../../src/contract/events';
import { innerCallCounts, innerCallRow } from '../../src/ui/timeline/program-call-rows';
import type { ToolRow } from '../../src/ui/timeline/rows';
import { programInput, scriptLogs, scriptResultLine, scriptToolOf, skillScriptInput } from '../../src/ui/timeline/script-details';
import { TimelineModel } from '../../src/ui/timeline/timeline-model';
import { anyEnvelope } from '../fixtures/journal-events';

// The timeline of script calls (issue 35): a program's inner calls nest under its row, and what the
// script tools stored reads back as code, args, logs and a one-line result.

function journal() {
    let seq = 0;
    return <T extends EventType>(type: T, payload: EventPayloads[T]): JournalEvent => {
        seq += 1;
        return anyEnvelope({ runId: 'r1', seq: seq - 1, at: 1000 + seq * 10, type, payload });
    };
}

function innerCall(n: number, programCallId: string, code: string | null = null): EventPayloads['script-call'] {
    return {
        callId: `i${n}`,
        programCallId,
        name: 'chat_search',
        canonical: 'chat.search',
        counted: true,
        durationMs: 3,
        summary: code ? `ERROR ${code}: No such message\nHint: Search first` : `3 hits for "Mira"`,
        code,
        argsPath: `tool-args/i${n}.json`,
        resultPath: `tool-results/i${n}.json`,
    };
}

test("a program's inner calls nest under its row, in order, and count in the run's calls", () => {
    const e = journal();
    const model = new TimelineModel('r1');
    model.apply([
        e('run-create', { chatKey: 'k', chatId: 'c', profileId: 'writer', generationType: 'normal', foreground: true }),
        e('tool-call-start', { callId: 'p', name: 'script_run', canonical: 'script.run', argsPath: 'tool-args/p.json' }),
        e('script-call', innerCall(1, 'p')),
        e('script-call', innerCall(2, 'p', 'chat.message_not_found')),
        e('tool-call-complete', { callId: 'p', name: 'script_run', durationMs: 40, summary: 'Program result:\n{"Mira":3}', resultPath: 'tool-results/p.json' }),
    ]);
    assert.deepEqual(model.rows.map((row) => row.kind === 'tool' && row.name), ['script_run'], 'inner calls are not rows of the run');
    const program = model.rows[0] as ToolRow;
    assert.deepEqual(program.innerCalls.map((call) => `${call.canonical}=${call.status}`), ['chat.search=completed', 'chat.search=error']);
    assert.deepEqual(program.innerCalls[1]!.error, { code: 'chat.message_not_found', message: 'No such message', hint: 'Search first' });
    assert.deepEqual(innerCallCounts(program), { calls: 2, failed: 1 });
    assert.equal(model.summary.calls, 3);
    assert.equal(model.summary.failedCalls, 1);
});

test('an inner call whose program has no row stands on its own', () => {
    const e = journal();
    const model = new TimelineModel('r1');
    model.apply([e('script-call', innerCall(1, 'gone'))]);
    assert.deepEqual(model.rows.map((row) => row.kind === 'tool' && `${row.eventType}:${row.callId}`), ['script-call:i1']);
});

test('an inner row starts at its answer less its duration', () => {
    const row = innerCallRow(innerCall(1, 'p'), 500);
    assert.equal(row.at, 497);
    assert.equal(row.status, 'completed');
    assert.equal(row.error, null);
});

test('script tools are known by canonical name or by the alias before the call started', () => {
    assert.equal(scriptToolOf({ name: 'script_run', canonical: null }), 'program');
    assert.equal(scriptToolOf({ name: 'x', canonical: 'skill.run_script' }), 'skill');
    assert.equal(scriptToolOf({ name: 'skill_run_script', canonical: null }), 'skill');
    assert.equal(scriptToolOf({ name: 'chat_search', canonical: 'chat.search' }), null);
});

test("a program's stored arguments read back as its code and its args; anything else as nothing", () => {
    assert.deepEqual(programInput(JSON.stringify({ code: 'return 1;' })), { code: 'return 1;', args: null });
    assert.deepEqual(programInput(JSON.stringify({ code: 'return args.n;', args: { n: 2 } })), { code: 'return args.n;', args: '{\n  "n": 2\n}' });
    assert.equal(programInput('{"code": 5}'), null);
    assert.equal(programInput('not json'), null);
    assert.equal(programInput('[1]'), null);
});

test("a skill script's stored arguments name the script's file in its skill", () => {
    assert.deepEqual(skillScriptInput(JSON.stringify({ skill: 'loot', script: 'roll', args: {} })), { skill: 'loot', path: 'scripts/roll.js', args: null });
    assert.deepEqual(skillScriptInput(JSON.stringify({ skill: 'loot', script: 'roll', args: { d: 6 } })), { skill: 'loot', path: 'scripts/roll.js', args: '{\n  "d": 6\n}' });
    assert.equal(skillScriptInput(JSON.stringify({ skill: 'loot' })), null);
});

test("a skill script's logs come from its stored outcome; malformed entries are left out", () => {
    const stored = JSON.stringify({
        ok: true,
        result: { content: 'x', details: { logs: [{ level: 'info', text: 'rolled' }, { level: 'loud', text: 'no' }, { level: 'warn' }, { level: 'warn', text: '<b>low</b>' }] } },
    });
    assert.deepEqual(scriptLogs(stored), [{ level: 'info', text: 'rolled' }, { level: 'warn', text: '<b>low</b>' }]);
    assert.deepEqual(scriptLogs(JSON.stringify({ ok: false, error: { code: 'x' } })), []);
    assert.deepEqual(scriptLogs('garbage'), []);
});

test("a finished script's row line is what it returned, and for a skill's script which one ran", () => {
    assert.equal(scriptResultLine('program', 'Program result:\n{"Mira":3}\nConsole:\nhi'), '{"Mira":3}');
    assert.equal(scriptResultLine('skill', 'Executed skill script `loot/scripts/roll.js`. Result:\n{"gold":12}\nWrote: output/loot.md.'), 'loot/scripts/roll.js → {"gold":12}');
    assert.equal(scriptResultLine('skill', 'something else'), 'something else');
});
