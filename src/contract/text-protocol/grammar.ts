import type { WireTool } from '../model';

import { toolCallKbnf } from './grammar-kbnf';

/** The request fields a backend may read a grammar (or a schema that competes with one) from. */
export const GRAMMAR_FIELDS = ['grammar', 'grammar_string', 'json_schema'] as const;

/**
 * Text Completion backends that take a grammar, by SillyTavern's type name, with the field and language each
 * reads (SillyTavern's server passes their bodies through): llama.cpp and KoboldCpp a GBNF `grammar`,
 * text-generation-webui a GBNF `grammar_string`, TabbyAPI a KBNF `grammar_string`.
 */
export const GRAMMAR_BACKENDS: Readonly<Record<string, { field: 'grammar' | 'grammar_string'; language: 'gbnf' | 'kbnf' }>> = {
    llamacpp: { field: 'grammar', language: 'gbnf' },
    koboldcpp: { field: 'grammar', language: 'gbnf' },
    ooba: { field: 'grammar_string', language: 'gbnf' },
    tabby: { field: 'grammar_string', language: 'kbnf' },
};

/**
 * The grammar fields of one request to `apiType` offering `tools`: the tool-call grammar in the backend's field
 * and language, and every other grammar or JSON schema field unset (llama.cpp refuses a grammar beside a JSON
 * schema; a sampler preset's own grammar would fight the protocol). Null: the backend takes no grammar.
 */
export function grammarFields(apiType: string, tools: readonly WireTool[]): Record<(typeof GRAMMAR_FIELDS)[number], string | undefined> | null {
    const backend = Object.hasOwn(GRAMMAR_BACKENDS, apiType) ? GRAMMAR_BACKENDS[apiType] : undefined;
    if (!backend || tools.length === 0) return null;
    const fields: Record<(typeof GRAMMAR_FIELDS)[number], string | undefined> = { grammar: undefined, grammar_string: undefined, json_schema: undefined };
    fields[backend.field] = backend.language === 'kbnf' ? toolCallKbnf(tools) : toolCallGrammar(tools);
    return fields;
}

const gbnfString = (text: string) => `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

/**
 * A GBNF grammar (llama.cpp, KoboldCpp, text-generation-webui) for one turn of the text protocol: free text, then any number of
 * well-formed `<tool_call>` blocks calling the offered tools only, each with a JSON object of arguments.
 * Free text may not start a tag with "<t" (but for a reasoning model's "<think>"), so a call can only be
 * written whole, and a result never; argument values are any
 * JSON (the dispatcher checks them against each tool's schema and explains what is wrong).
 */
export function toolCallGrammar(tools: readonly WireTool[]): string {
    const names = tools.map((tool) => gbnfString(JSON.stringify(tool.function.name))).join(' | ');
    // Whitespace follows tokens only (never "ws ws"), as in llama.cpp's json.gbnf: ambiguous whitespace
    // makes the sampler's grammar stacks grow with every space.
    return [
        'root ::= text (call text)*',
        'text ::= ([^<] | "<" [^t] | "<think>")*',
        `call ::= "<tool_call>" ws "{" ws "\\"name\\"" ws ":" ws name "," ws "\\"arguments\\"" ws ":" ws object "}" ws "</tool_call>"`,
        `name ::= (${names || '"\\"\\""'}) ws`,
        'value ::= object | array | string | number | ("true" | "false" | "null") ws',
        'object ::= "{" ws ( string ":" ws value ( "," ws string ":" ws value )* )? "}" ws',
        'array ::= "[" ws ( value ( "," ws value )* )? "]" ws',
        'string ::= "\\"" ( [^"\\\\\\x00-\\x1f] | "\\\\" ( ["\\\\/bfnrt] | "u" [0-9a-fA-F] [0-9a-fA-F] [0-9a-fA-F] [0-9a-fA-F] ) )* "\\"" ws',
        'number ::= "-"? ([0-9] | [1-9] [0-9]*) ("." [0-9]+)? ([eE] [-+]? [0-9]+)? ws',
        'ws ::= [ \\t\\n]*',
    ].join('\n');
}
