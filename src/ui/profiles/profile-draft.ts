import type { Profile } from '../../contract/profile';
import type { FieldError } from '../../contract/profile-migrations';

/**
 * The editor's working copy of a profile. Numbers may be NaN while a field is empty (the worker's check
 * names it), and the comma-separated lists stay as typed until Save, so a trailing comma survives typing.
 */
export interface Draft {
    profile: Profile;
    lists: { skillsVisible: string; skillsDeny: string; allowedCallers: string; toolsAllow: string; toolsDeny: string };
    /** Not stored yet (a duplicate): its id is still editable. */
    isNew: boolean;
}

export function draftOf(profile: Profile, isNew = false): Draft {
    return {
        profile: structuredClone(profile),
        lists: {
            skillsVisible: profile.skills.visible.join(', '),
            skillsDeny: profile.skills.deny.join(', '),
            allowedCallers: profile.delegation.allowedCallers.join(', '),
            toolsAllow: profile.tools.allow.join(', '),
            toolsDeny: profile.tools.deny.join(', '),
        },
        isNew,
    };
}

export function splitList(text: string): string[] {
    return text
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean);
}

/** The JSON the worker validates and the store keeps. */
export function rawOf(draft: Draft): Profile {
    const profile = structuredClone(draft.profile);
    profile.skills.visible = splitList(draft.lists.skillsVisible);
    profile.skills.deny = splitList(draft.lists.skillsDeny);
    profile.delegation.allowedCallers = splitList(draft.lists.allowedCallers);
    profile.tools.allow = splitList(draft.lists.toolsAllow);
    profile.tools.deny = splitList(draft.lists.toolsDeny);
    return profile;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
    return Boolean(value) && typeof value === 'object' && !Array.isArray(value);
}

/**
 * A stored profile that no longer validates, laid over a template so the form has every field to show:
 * what the user stored is kept where its shape fits, and the field errors say what to fix.
 */
export function fillFromRaw(raw: unknown, template: Profile, id: string): Profile {
    const merge = (base: unknown, value: unknown): unknown => {
        if (isPlainObject(base)) {
            if (!isPlainObject(value)) return structuredClone(base);
            const out: Record<string, unknown> = { ...structuredClone(value) };
            for (const [key, baseValue] of Object.entries(base)) out[key] = merge(baseValue, value[key]);
            return out;
        }
        if (Array.isArray(base)) return Array.isArray(value) ? structuredClone(value) : structuredClone(base);
        return value === undefined || isPlainObject(value) || Array.isArray(value) ? base : value;
    };
    return { ...(merge(template, raw) as Profile), id };
}

/** "<id>-copy", then "<id>-copy-2", … — within the id limit of 64 characters. */
export function uniqueCopyId(id: string, taken: ReadonlySet<string>): string {
    for (let n = 1; ; n += 1) {
        const suffix = n === 1 ? '-copy' : `-copy-${n}`;
        const candidate = id.slice(0, 64 - suffix.length) + suffix;
        if (!taken.has(candidate)) return candidate;
    }
}

/** Every field the form shows, by the dotted path the worker's FieldError uses. */
const FIELD_PATHS = [
    'id',
    'displayName',
    'description',
    'model',
    'presentation',
    'tools.allow',
    'tools.deny',
    'tools.maxRounds',
    'tools.maxCallsPerRun',
    'tools.maxCallsPerTool',
    'skills.visible',
    'skills.deny',
    'skills.maxReadCharsPerCall',
    'skills.maxReadCharsPerRun',
    'delegation.canDelegate',
    'delegation.callable',
    'delegation.allowAsSubagent',
    'delegation.allowedCallers',
    'delegation.maxDelegationsPerRun',
    'delegation.maxConcurrent',
    'context.historyMessages',
    'context.includeWorldInfo',
    'context.includeHiddenMessages',
    'memory.pinnedChars',
    'memory.buildChunk',
    'workspace.visibleRoots',
    'workspace.writableRoots',
    'maxToolReminders',
    'systemPrompt',
    'lore.editOtherBooks',
    'brief.depth',
    'brief.role',
    'brief.replanOnSwipe',
    'scripts',
] as const;

function belongsTo(error: FieldError, path: string): boolean {
    return error.path === path || error.path.startsWith(`${path}.`);
}

/** The errors shown next to one field: its own and those of its items ("tools.allow.2"). */
export function errorsAt(errors: readonly FieldError[], path: string): FieldError[] {
    return errors.filter((error) => belongsTo(error, path));
}

/** Errors no field claims (the profile as a whole, a missing section): shown above the form. */
export function unplacedErrors(errors: readonly FieldError[]): FieldError[] {
    return errors.filter((error) => !FIELD_PATHS.some((path) => belongsTo(error, path)));
}

function stable(value: unknown): unknown {
    if (Array.isArray(value)) return value.map(stable);
    if (isPlainObject(value)) return Object.fromEntries(Object.keys(value).sort().map((key) => [key, stable(value[key])]));
    return value;
}

/** Same content, whatever the key order (a parsed profile and a shipped constant order keys differently). */
export function sameProfile(a: unknown, b: unknown): boolean {
    return JSON.stringify(stable(a)) === JSON.stringify(stable(b));
}
