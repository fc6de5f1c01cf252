import type { WireTool } from '../model';

/**
 * A KBNF terminal (TabbyAPI's grammar language, through Formatron): single-quoted, backslash-escaped. Tabby
 * names the grammar's root by replacing every "start" in the text, so one inside a terminal (a tool named
 * `start_timer`) is written with its "s" escaped, and stays a name.
 */
const kbnfString = (text: string) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/start/g, '\\u0073tart')}'`;

/**
 * The same turn as `toolCallGrammar` in KBNF, for TabbyAPI's `grammar_string` (its ExLlamaV2 backend, through
 * Formatron): free text, then any number of well-formed `<tool_call>` blocks calling the offered tools only.
 * Rules end with ";", regular expressions are `#'…'` (unescaped once, then read as a regex), the root is
 * `start`. Rule names carry a prefix, so they never meet the rules Formatron adds around them.
 */
export function toolCallKbnf(tools: readonly WireTool[]): string {
    const names = tools.map((tool) => kbnfString(JSON.stringify(tool.function.name))).join(' | ');
    return [
        'start ::= ta_text (ta_call ta_text)*;',
        // One piece at a time, each unambiguous: a run of text without "<", a "<" not starting a tag, or "<think>".
        "ta_text ::= ta_piece*;",
        "ta_piece ::= #'[^<]' | #'<[^t]' | '<think>';",
        `ta_call ::= '<tool_call>' ta_ws? '{' ta_ws? '"name"' ta_ws? ':' ta_ws? ta_name ',' ta_ws? '"arguments"' ta_ws? ':' ta_ws? ta_object '}' ta_ws? '</tool_call>';`,
        `ta_name ::= (${names || kbnfString('""')}) ta_ws?;`,
        "ta_value ::= ta_object | ta_array | ta_string | ta_number | #'true|false|null' ta_ws?;",
        "ta_object ::= '{' ta_ws? (ta_string ':' ta_ws? ta_value (',' ta_ws? ta_string ':' ta_ws? ta_value)*)? '}' ta_ws?;",
        "ta_array ::= '[' ta_ws? (ta_value (',' ta_ws? ta_value)*)? ']' ta_ws?;",
        // A JSON string: no raw quote, backslash or control character; escapes as JSON has them.
        `ta_string ::= #'"([^"\\\\\\\\\\u0000-\\u001f]|\\\\\\\\(["\\\\\\\\/bfnrt]|u[0-9a-fA-F]{4}))*"' ta_ws?;`,
        "ta_number ::= #'-?(0|[1-9][0-9]*)(\\\\.[0-9]+)?([eE][-+]?[0-9]+)?' ta_ws?;",
        "ta_ws ::= #'[ \\\\t\\\\n]+';",
    ].join('\n');
}
