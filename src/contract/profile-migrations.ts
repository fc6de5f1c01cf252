import * as z from 'zod';
import { PROFILE_VERSION, ProfileSchema, WRITER_PROFILE, type Profile } from './profile';
import { VISIBLE_ROOTS } from './workspace-roots';

export interface FieldError {
    /** Dotted path of the field, e.g. "tools.maxRounds"; "" for the profile as a whole. */
    path: string;
    message: string;
    /** What the validator found, as data, for the panel to say in the reader's words (the message is the validator's). */
    rule?: FieldRule;
}

export type FieldRule =
    | { kind: 'too_small' | 'too_big'; of: 'number' | 'text' | 'list'; limit: number; integer?: boolean }
    | { kind: 'not_whole' }
    | { kind: 'wrong_type'; expected: string }
    | { kind: 'not_allowed'; allowed: string[] }
    | { kind: 'bad_format' };

/** The validator's issue as a rule a user can be told about; null for the rest (their message is kept). */
function ruleOf(issue: z.core.$ZodIssue): FieldRule | null {
    switch (issue.code) {
        case 'too_small':
        case 'too_big': {
            const of = issue.origin === 'number' || issue.origin === 'int' ? 'number' : issue.origin === 'string' ? 'text' : issue.origin === 'array' || issue.origin === 'set' ? 'list' : null;
            const bound = issue.code === 'too_small' ? issue.minimum : issue.maximum;
            if (of === null) return null;
            // An exclusive bound of a whole number is the next whole number in words ("at least 1" for > 0).
            const limit = Number(bound) + (issue.inclusive === false ? (issue.code === 'too_small' ? 1 : -1) : 0);
            return { kind: issue.code, of, limit };
        }
        case 'invalid_type':
            return issue.expected === 'int' ? { kind: 'not_whole' } : { kind: 'wrong_type', expected: String(issue.expected) };
        case 'invalid_value':
            return { kind: 'not_allowed', allowed: issue.values.map(String) };
        case 'invalid_format':
            return { kind: 'bad_format' };
        default:
            return null;
    }
}

export type ProfileParse = { ok: true; profile: Profile; migratedFrom: number | null } | { ok: false; errors: FieldError[] };

type Migration = (raw: Record<string, unknown>) => Record<string, unknown>;

/**
 * One step per released version: `MIGRATIONS[n]` turns a version-n profile into version n+1. Steps are
 * never edited once shipped; fixtures of every old version are tested (tests/fixtures/profiles/).
 */
const MIGRATIONS: Record<number, Migration> = {
    // v1 (the runtime's first profile) had no model, skills, delegation, context or workspace fields.
    1: (raw) => ({
        ...raw,
        version: 2,
        model: { mode: 'current' },
        skills: WRITER_PROFILE.skills,
        delegation: { ...WRITER_PROFILE.delegation, callable: raw.presentation === 'background', allowAsSubagent: raw.presentation === 'background' },
        context: WRITER_PROFILE.context,
        workspace: { writableRoots: WRITER_PROFILE.workspace.writableRoots },
    }),
    // v2 had only writable roots; every root stayed visible.
    2: (raw) => {
        const workspace = (raw.workspace ?? {}) as Record<string, unknown>;
        return { ...raw, version: 3, workspace: { ...workspace, visibleRoots: [...VISIBLE_ROOTS] } };
    },
};

function issuesToErrors(issues: readonly z.core.$ZodIssue[]): FieldError[] {
    return issues.map((issue) => {
        const rule = ruleOf(issue);
        return { path: issue.path.map(String).join('.'), message: issue.message, ...(rule ? { rule } : {}) };
    });
}

/** Validates a profile from storage or an import, migrating older versions first. */
export function parseProfile(raw: unknown): ProfileParse {
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return { ok: false, errors: [{ path: '', message: 'a profile must be a JSON object' }] };
    let current = raw as Record<string, unknown>;
    const version = current.version ?? 1;
    if (typeof version !== 'number' || !Number.isInteger(version) || version < 1) {
        return { ok: false, errors: [{ path: 'version', message: 'unknown profile version' }] };
    }
    if (version > PROFILE_VERSION) {
        return { ok: false, errors: [{ path: 'version', message: `made by a newer Tavern Agent (version ${version}); update the extension to use it` }] };
    }
    for (let step = version; step < PROFILE_VERSION; step += 1) current = MIGRATIONS[step]!({ ...current, version: step });
    const parsed = ProfileSchema.safeParse(current);
    if (!parsed.success) return { ok: false, errors: issuesToErrors(parsed.error.issues) };
    return { ok: true, profile: parsed.data, migratedFrom: version === PROFILE_VERSION ? null : version };
}

/** The export file: a list of profiles with the format's own version. */
export const PROFILE_EXPORT_KIND = 'tavern-agent.profiles';

export function exportProfiles(profiles: readonly Profile[]): string {
    return JSON.stringify({ kind: PROFILE_EXPORT_KIND, version: PROFILE_VERSION, profiles }, null, 2);
}

export type ImportResult =
    | { ok: true; profiles: Profile[] }
    | { ok: false; errors: Array<FieldError & { profile: string }> };

/**
 * Reads an export file (or a single profile object). All or nothing: one invalid profile rejects the
 * whole import, with every field error named, and nothing is changed.
 */
/** The largest profile file accepted: far above any real set of profiles, far below a hang. */
export const PROFILE_IMPORT_MAX_CHARS = 1024 * 1024;

export function importProfiles(text: string): ImportResult {
    if (text.length > PROFILE_IMPORT_MAX_CHARS) return { ok: false, errors: [{ profile: '', path: '', message: 'the file is too large (over 1 MiB)' }] };
    let data: unknown;
    try {
        data = JSON.parse(text);
    } catch (error) {
        return { ok: false, errors: [{ profile: '', path: '', message: `not valid JSON (${error instanceof Error ? error.message : String(error)})` }] };
    }
    const list: unknown[] =
        data && typeof data === 'object' && !Array.isArray(data) && (data as { kind?: unknown }).kind === PROFILE_EXPORT_KIND
            ? Array.isArray((data as { profiles?: unknown }).profiles)
                ? ((data as { profiles: unknown[] }).profiles)
                : []
            : Array.isArray(data)
              ? data
              : [data];
    if (list.length === 0) return { ok: false, errors: [{ profile: '', path: 'profiles', message: 'the file holds no profiles' }] };
    const profiles: Profile[] = [];
    const errors: Array<FieldError & { profile: string }> = [];
    list.forEach((raw, index) => {
        const name = raw && typeof raw === 'object' && typeof (raw as { id?: unknown }).id === 'string' ? (raw as { id: string }).id : `#${index + 1}`;
        const parsed = parseProfile(raw);
        if (parsed.ok) profiles.push(parsed.profile);
        else errors.push(...parsed.errors.map((error) => ({ ...error, profile: name })));
    });
    const ids = profiles.map((p) => p.id);
    ids.forEach((id, i) => {
        if (ids.indexOf(id) !== i) errors.push({ profile: id, path: 'id', message: 'the same id appears twice in the file' });
    });
    return errors.length ? { ok: false, errors } : { ok: true, profiles };
}
