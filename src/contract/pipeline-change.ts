// No zod here, as in agent-mode.ts: `TavernAgent.pipeline` and `/agent pipeline` read their input by hand.
import { MAX_AFTER_AGENTS, parsePipeline, type Pipeline } from './agent-mode';
import { fail, ok, type Result } from './result';

/** A change to a chat's pipeline (issue 34): any part of it; the parts left out stay as they are. */
export type PipelineChange = Partial<Pipeline>;

const PARTS = ['before', 'reply', 'after'] as const;

/**
 * A change as a script or the panel hands it over, checked for shape only (which profiles exist is the
 * engine's to say): an object of known parts, `before` a profile id or null, `reply` 'agent' or
 * 'sillytavern', `after` distinct profile ids, at most MAX_AFTER_AGENTS of them.
 */
export function parsePipelineChange(raw: unknown): Result<PipelineChange> {
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return fail('pipeline.invalid', 'A pipeline change is an object with any of before, reply and after.');
    const unknown = Object.keys(raw).filter((key) => !(PARTS as readonly string[]).includes(key));
    if (unknown.length) return fail('pipeline.invalid', `A pipeline has no part "${unknown[0]}": use before, reply and after.`);
    const change = raw as Record<string, unknown>;
    const checked = parsePipeline({ before: null, reply: 'agent', after: [], ...change });
    if (!checked) {
        if ('before' in change && change.before !== null && typeof change.before !== 'string') return fail('pipeline.invalid', 'before is a profile id, or null for no agent before the reply.');
        if ('reply' in change && change.reply !== 'agent' && change.reply !== 'sillytavern') return fail('pipeline.invalid', "reply is 'agent' (the chat's agent writes it) or 'sillytavern' (SillyTavern's own generation).");
        if ('after' in change && Array.isArray(change.after) && change.after.length > MAX_AFTER_AGENTS) return fail('pipeline.invalid', `At most ${MAX_AFTER_AGENTS} agents run after a reply.`);
        return fail('pipeline.invalid', 'after is a list of profile ids; before and each of after name a profile (1 to 64 characters).');
    }
    if (new Set(checked.after).size !== checked.after.length) return fail('pipeline.invalid', 'A profile is listed twice in after: each agent after the reply runs once.');
    const parsed: PipelineChange = {};
    for (const part of PARTS) if (part in change) Object.assign(parsed, { [part]: checked[part] });
    return ok(parsed);
}

/**
 * `/agent pipeline`'s words: `before=<id|none> reply=<agent|sillytavern> after=<id,id…|none>`, any of them, in
 * any order. `none` empties a part.
 */
export function parsePipelineWords(text: string): Result<PipelineChange> {
    const change: Record<string, unknown> = {};
    for (const word of text.trim().split(/\s+/).filter(Boolean)) {
        const match = /^([a-z]+)=(.*)$/i.exec(word);
        const part = match?.[1]!.toLowerCase();
        if (!match || !part || !(PARTS as readonly string[]).includes(part)) {
            return fail('pipeline.invalid', `Not a pipeline setting: "${word}". Use before=<id|none>, reply=<agent|sillytavern>, after=<id,id…|none>.`);
        }
        if (part in change) return fail('pipeline.invalid', `${part} is set twice.`);
        const value = match[2]!;
        if (part === 'before') change.before = value.toLowerCase() === 'none' || value === '' ? null : value;
        else if (part === 'reply') change.reply = value.toLowerCase();
        else change.after = value.toLowerCase() === 'none' || value === '' ? [] : value.split(',').map((id) => id.trim()).filter(Boolean);
    }
    return parsePipelineChange(change);
}

/** The change applied to a pipeline. */
export function applyPipelineChange(pipeline: Pipeline, change: PipelineChange): Pipeline {
    return { before: change.before === undefined ? pipeline.before : change.before, reply: change.reply ?? pipeline.reply, after: [...(change.after ?? pipeline.after)] };
}

/** The default pipeline: the chat's agent writes the reply, nobody before or after it. */
export function isDefaultPipeline(pipeline: Pipeline): boolean {
    return pipeline.before === null && pipeline.reply === 'agent' && pipeline.after.length === 0;
}
