/**
 * The strict reader of the text tool protocol (SPEC §9): a Text Completion model calls tools by writing
 * `<tool_call>{"name": "...", "arguments": {...}}</tool_call>`, one or more per turn. Mistakes whose intent
 * is unambiguous are repaired and named (the journal says what was repaired); anything else becomes an
 * invalid call that the dispatcher answers with `tool.invalid_arguments` and the exact expected form.
 * Pure: no I/O, used by the worker's decoder and by unit tests.
 */

export const TOOL_CALL_OPEN = '<tool_call>';
export const TOOL_CALL_CLOSE = '</tool_call>';
export const TOOL_RESPONSE_OPEN = '<tool_response>';
export const TOOL_RESPONSE_CLOSE = '</tool_response>';

/** What every hint shows: the one form the reader accepts without repairs. */
export const EXPECTED_CALL_FORM = `${TOOL_CALL_OPEN}{"name": "tool_name", "arguments": {"key": "value"}}${TOOL_CALL_CLOSE}`;

export type Repair = 'code_fence' | 'trailing_comma' | 'arguments_as_string' | 'missing_close_tag';

export type ParsedTextCall =
    | { ok: true; name: string; arguments: Record<string, unknown>; repairs: Repair[] }
    | { ok: false; name: string | null; raw: string; message: string };

export interface ParsedTextTurn {
    /** The text outside the calls (narration), trimmed. */
    text: string;
    calls: ParsedTextCall[];
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const FENCE = '```';

/**
 * Removes one ```json … ``` (or ``` … ```) fence around the whole block. Linear string scans, no
 * backtracking pattern: a model's output is untrusted, and a fence that never closes must cost one pass.
 */
function stripFence(body: string): string | null {
    if (body.length < FENCE.length * 2 || !body.startsWith(FENCE) || !body.endsWith(FENCE)) return null;
    let start = FENCE.length;
    while (start < body.length - FENCE.length && /[a-zA-Z]/.test(body[start]!)) start += 1;
    return body.slice(start, body.length - FENCE.length).trim();
}

/** Removes commas that come right before a closing brace or bracket, outside strings. */
function stripTrailingCommas(json: string): string {
    const kept: string[] = [];
    let from = 0;
    let inString = false;
    for (let i = 0; i < json.length; i += 1) {
        const ch = json.charCodeAt(i);
        if (inString) {
            if (ch === BACKSLASH) i += 1;
            else if (ch === QUOTE) inString = false;
            continue;
        }
        if (ch === QUOTE) inString = true;
        else if (ch === COMMA) {
            // Look past the whitespace only: the next comma stops the look, so the whole pass stays linear.
            let next = i + 1;
            while (next < json.length && isJsonSpace(json.charCodeAt(next))) next += 1;
            const after = json.charCodeAt(next);
            if (after === CLOSE_BRACE || after === CLOSE_BRACKET) {
                kept.push(json.slice(from, i));
                from = i + 1;
            }
        }
    }
    kept.push(json.slice(from));
    return kept.join('');
}

const [BACKSLASH, QUOTE, COMMA, CLOSE_BRACE, CLOSE_BRACKET] = ['\\', '"', ',', '}', ']'].map((ch) => ch.charCodeAt(0)) as [number, number, number, number, number];
/** JSON's whitespace: space, tab, line feed, carriage return. */
const isJsonSpace = (code: number) => code === 32 || code === 9 || code === 10 || code === 13;

function tryJson(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
    try {
        return { ok: true, value: JSON.parse(text) };
    } catch (error) {
        return { ok: false, message: error instanceof Error ? error.message : String(error) };
    }
}

/** A best-effort name for an unreadable call, so the error can say which tool it was meant for. */
function guessName(body: string): string | null {
    return /"name"\s*:\s*"([^"\\]{1,80})"/.exec(body)?.[1] ?? null;
}

/** Reads the JSON inside one `<tool_call>` block. */
export function parseCallBody(inner: string, repairs: Repair[] = []): ParsedTextCall {
    let body = inner.trim();
    const unfenced = stripFence(body);
    if (unfenced !== null) {
        body = unfenced;
        repairs.push('code_fence');
    }
    let parsed = tryJson(body);
    if (!parsed.ok) {
        const withoutCommas = stripTrailingCommas(body);
        if (withoutCommas !== body) {
            const second = tryJson(withoutCommas);
            if (second.ok) {
                parsed = second;
                repairs.push('trailing_comma');
            }
        }
    }
    if (!parsed.ok) return { ok: false, name: guessName(body), raw: inner.trim(), message: `the call is not valid JSON (${parsed.message})` };
    const value = parsed.value;
    if (!isPlainObject(value)) return { ok: false, name: null, raw: inner.trim(), message: 'the call must be one JSON object with "name" and "arguments"' };
    const name = value.name;
    if (typeof name !== 'string' || name.trim() === '') return { ok: false, name: null, raw: inner.trim(), message: 'the call has no "name" string' };
    const extra = Object.keys(value).filter((key) => key !== 'name' && key !== 'arguments');
    if (extra.length > 0) {
        return { ok: false, name, raw: inner.trim(), message: `the call has fields other than "name" and "arguments" (${extra.join(', ')}); put the tool's arguments inside "arguments"` };
    }
    let args: unknown = value.arguments ?? {};
    if (typeof args === 'string') {
        const inner2 = tryJson(args.trim() === '' ? '{}' : args);
        if (!inner2.ok || !isPlainObject(inner2.value)) {
            return { ok: false, name, raw: inner.trim(), message: '"arguments" is a string that is not a JSON object' };
        }
        args = inner2.value;
        repairs.push('arguments_as_string');
    }
    if (!isPlainObject(args)) return { ok: false, name, raw: inner.trim(), message: '"arguments" must be a JSON object' };
    return { ok: true, name: name.trim(), arguments: args, repairs };
}

/**
 * Splits a model turn into narration and calls. A final `<tool_call>` whose closing tag is missing (the
 * model stopped right after the JSON) is read when its JSON is complete, and the repair is named; a
 * `</tool_call>` without an opening tag is left in the text.
 */
/** More calls than any budget allows in a turn: past this, the turn's remaining calls are not read. */
export const MAX_CALLS_PER_TURN = 64;

export function parseTextTurn(output: string): ParsedTextTurn {
    const calls: ParsedTextCall[] = [];
    const textParts: string[] = [];
    // One pass by positions: each tag is searched for from where the last one ended, and a closing tag
    // that is not there at all is not searched for again (a thousand unclosed calls cost one scan each way).
    let at = 0;
    let close = -2;
    for (;;) {
        const open = output.indexOf(TOOL_CALL_OPEN, at);
        if (open < 0) {
            textParts.push(output.slice(at));
            break;
        }
        if (calls.length === MAX_CALLS_PER_TURN) {
            textParts.push(output.slice(at, open));
            calls.push({ ok: false, name: null, raw: '', message: `the turn has more than ${MAX_CALLS_PER_TURN} calls; the rest were not read. Make fewer calls per turn` });
            break;
        }
        textParts.push(output.slice(at, open));
        const bodyStart = open + TOOL_CALL_OPEN.length;
        if (close !== -1 && close < bodyStart) close = output.indexOf(TOOL_CALL_CLOSE, bodyStart);
        const nextOpen = output.indexOf(TOOL_CALL_OPEN, bodyStart);
        if (close < 0 || (nextOpen >= 0 && nextOpen < close)) {
            // No closing tag before the next call (or the end): the block runs to there.
            const end = nextOpen >= 0 ? nextOpen : output.length;
            const parsed = parseCallBody(output.slice(bodyStart, end), []);
            calls.push(parsed.ok ? { ...parsed, repairs: [...parsed.repairs, 'missing_close_tag'] } : parsed);
            at = end;
            if (nextOpen < 0) break;
            continue;
        }
        calls.push(parseCallBody(output.slice(bodyStart, close), []));
        at = close + TOOL_CALL_CLOSE.length;
    }
    return { text: textParts.join('').replace(/\n{3,}/g, '\n\n').trim(), calls };
}

/** The hint of an invalid call: what was wrong and the exact form, with the intended tool's name when known. */
export function invalidCallHint(name: string | null): string {
    const example = name ? EXPECTED_CALL_FORM.replace('tool_name', name) : EXPECTED_CALL_FORM;
    return `Write each call exactly as ${example} — one JSON object, "arguments" an object, no code fence, nothing else inside the tags.`;
}
