// The tool-call grammar reaches every Text Completion backend that takes one (issue 39 §10), in its own field
// and language: llama.cpp and KoboldCpp a GBNF `grammar`, text-generation-webui a GBNF `grammar_string`,
// TabbyAPI a KBNF `grammar_string` (as SillyTavern's textgen-settings.js names the fields per type).
// Run: node --import tsx --test tests/unit/text-grammar.test.ts
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { WireTool } from '../../src/contract/model';
import { toolCallGrammar } from '../../src/contract/text-protocol';
import { toolCallKbnf } from '../../src/contract/text-protocol/grammar-kbnf';
import { applyProtocol } from '../../src/host/model/text-completion/text-request';

const tool = (name: string): WireTool => ({ type: 'function', function: { name, description: name, parameters: { type: 'object', properties: {} } } });
const tools = [tool('workspace_read_file'), tool('workspace_finish')];

/** The body SillyTavern built for `apiType` (with the user's own grammar and schema), after the protocol went in. */
function built(apiType: string, grammar?: boolean): Record<string, unknown> {
    const data: Record<string, unknown> = { api_type: apiType, prompt: 'p', stop: ['\nUser:'], grammar: 'root ::= "user"', grammar_string: 'root ::= "user"', json_schema: { type: 'object' } };
    applyProtocol(data, { tools, ...(grammar === undefined ? {} : { grammar }) }, apiType);
    return data;
}

describe('the grammar per Text Completion backend', () => {
    it('llama.cpp and KoboldCpp get a GBNF `grammar`, and nothing that competes with it', () => {
        for (const type of ['llamacpp', 'koboldcpp']) {
            const body = built(type);
            assert.equal(body.grammar, toolCallGrammar(tools), type);
            assert.ok(!('grammar_string' in body) && !('json_schema' in body), `${type}: ${Object.keys(body).join(', ')}`);
        }
    });

    it('text-generation-webui gets the GBNF grammar as `grammar_string`', () => {
        const body = built('ooba');
        assert.equal(body.grammar_string, toolCallGrammar(tools));
        assert.ok(!('grammar' in body) && !('json_schema' in body));
    });

    it('TabbyAPI gets a KBNF grammar as `grammar_string`', () => {
        const body = built('tabby');
        assert.equal(body.grammar_string, toolCallKbnf(tools));
        assert.match(String(body.grammar_string), /^start ::= /);
        assert.ok(!('grammar' in body) && !('json_schema' in body));
    });

    it('a backend without a grammar, or a profile that turns it off, gets none of ours', () => {
        const generic = built('generic');
        assert.equal(generic.grammar, 'root ::= "user"', "the user's own settings pass as SillyTavern built them");
        assert.equal(generic.grammar_string, 'root ::= "user"');
        for (const type of ['llamacpp', 'koboldcpp', 'ooba', 'tabby']) {
            const off = built(type, false);
            assert.notEqual(off.grammar, toolCallGrammar(tools), type);
            assert.ok(off.grammar_string !== toolCallGrammar(tools) && off.grammar_string !== toolCallKbnf(tools), type);
        }
        const none = { api_type: 'llamacpp', stop: [] } as Record<string, unknown>;
        applyProtocol(none, { tools: [] }, 'llamacpp');
        assert.ok(!('grammar' in none), 'no tools offered (a wrap-up with none left): no grammar');
    });

    it('adds the protocol stop first, whatever the backend', () => {
        for (const type of ['llamacpp', 'koboldcpp', 'ooba', 'tabby', 'generic']) assert.equal((built(type).stop as string[])[0], '<tool_response>', type);
    });
});

/** KBNF's escapes in a quoted terminal, undone as Formatron's KBNF reader does before a regex is compiled. */
function unescapeKbnf(quoted: string): string {
    return quoted.slice(1, -1).replace(/\\(u[0-9a-fA-F]{4}|.)/g, (_, escape: string) => {
        if (escape.length === 5) return String.fromCharCode(parseInt(escape.slice(1), 16));
        return ({ n: '\n', t: '\t', r: '\r' } as Record<string, string>)[escape] ?? escape;
    });
}

describe('the KBNF grammar (TabbyAPI)', () => {
    const grammar = toolCallKbnf([...tools, tool('start_timer')]);
    const rules = grammar.split('\n');

    it('is rules ending in ";", every rule it names defined, rooted at `start`', () => {
        assert.ok(rules.every((rule) => /^[a-z_]+ ::= .+;$/.test(rule)), rules.join('\n'));
        const defined = new Set(rules.map((rule) => rule.slice(0, rule.indexOf(' ::='))));
        const bodies = rules.map((rule) => rule.slice(rule.indexOf('::=') + 3).replace(/#?'(?:[^'\\]|\\.)*'/g, ''));
        for (const name of bodies.flatMap((body) => body.match(/[a-z_]+/g) ?? [])) assert.ok(defined.has(name), `rule ${name} is defined`);
        assert.equal(rules[0]!.startsWith('start ::= '), true);
    });

    it('holds "start" only as its root: TabbyAPI renames every "start" in the text', () => {
        assert.equal(grammar.split('start').length - 1, 1, grammar);
        assert.match(grammar, /'"\\u0073tart_timer"'/, 'a tool named start_… keeps its name');
    });

    it('its regular expressions, once unescaped, accept JSON and the free text the protocol allows', () => {
        const regexes = new Map(rules.map((rule) => [rule.slice(0, rule.indexOf(' ::=')), [...rule.matchAll(/#('(?:[^'\\]|\\.)*')/g)].map((m) => new RegExp(`^(?:${unescapeKbnf(m[1]!)})$`))]));
        const [jsonString] = regexes.get('ta_string')!;
        for (const ok of ['""', '"plain"', '"a \\"quote\\" and \\\\ and \\n"', '"\\u00e9"', '"龙"']) assert.ok(jsonString!.test(ok), ok);
        for (const bad of ['"open', '"raw\nnewline"', '"bad \\x escape"', 'bare']) assert.ok(!jsonString!.test(bad), bad);
        const [number] = regexes.get('ta_number')!;
        for (const ok of ['0', '-12', '3.25', '1e9', '2.5E-3']) assert.ok(number!.test(ok), ok);
        for (const bad of ['01', '1.', '.5', '1x2']) assert.ok(!number!.test(bad), bad);
        const [ws] = regexes.get('ta_ws')!;
        assert.ok(ws!.test(' \t\n') && !ws!.test(''));
        const [anyButTag, lessThan] = regexes.get('ta_piece')!;
        assert.ok(anyButTag!.test('a') && anyButTag!.test('\n') && !anyButTag!.test('<'));
        assert.ok(lessThan!.test('< ') && !lessThan!.test('<t'), 'a "<" starts no tag but <think>');
    });
});
