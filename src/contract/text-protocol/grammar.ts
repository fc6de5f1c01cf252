import type { WireTool } from '../model';

/** Text Completion backends whose request body takes a GBNF `grammar` (SillyTavern passes it through). */
export const GRAMMAR_BACKENDS: ReadonlySet<string> = new Set(['llamacpp', 'koboldcpp']);

const gbnfString = (text: string) => `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

/**
 * A GBNF grammar (llama.cpp, KoboldCpp) for one turn of the text protocol: free text, then any number of
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
