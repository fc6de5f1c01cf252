import * as z from 'zod';

/**
 * Skills (SPEC §6, design/SKILLS-FORMAT.md): the shapes both sides of the wall agree on. A skill is
 * stored as one normalized bundle, content-addressed by the SHA-256 of its files; the user's skill index
 * (which skill of which name is installed in which scope, and its hash) lives in SillyTavern's user data,
 * the bundles on the server and cached in IndexedDB by hash, so a run can freeze its set by hash.
 */

export const SKILL_NAME_PATTERN = /^[a-z0-9_-]{1,128}$/;

/** Where a skill is installed. Resolved for a run global → preset → profile → character (later wins). */
export const SkillScopeSchema = z.union([
    z.literal('global'),
    z.object({ preset: z.string().min(1) }).strict(),
    z.object({ profile: z.string().min(1) }).strict(),
    z.object({ character: z.string().min(1) }).strict(),
]);
export type SkillScope = z.infer<typeof SkillScopeSchema>;

export const SkillFileSchema = z.object({
    /** Relative to the skill folder, `/`-separated: `SKILL.md`, `references/places.md`. */
    path: z.string().min(1),
    /** Text files are kept as text; anything that is not valid UTF-8 text is base64. */
    encoding: z.enum(['utf8', 'base64']),
    content: z.string(),
    bytes: z.number().int().nonnegative(),
});
export type SkillFile = z.infer<typeof SkillFileSchema>;

/** One skill, normalized: every file, sorted by path; `hash` is over paths and bytes. */
export const SkillBundleSchema = z.object({
    v: z.literal(1),
    name: z.string().regex(SKILL_NAME_PATTERN),
    description: z.string().min(1),
    hash: z.string().regex(/^[0-9a-f]{64}$/),
    /** Front matter as parsed (unknown fields kept; nothing in it grants a permission). */
    frontMatter: z.record(z.string(), z.unknown()),
    files: z.array(SkillFileSchema),
});
export type SkillBundle = z.infer<typeof SkillBundleSchema>;

/** One line of the user's skill index: small, kept in SillyTavern's user data. */
export const SkillIndexEntrySchema = z.object({
    name: z.string().regex(SKILL_NAME_PATTERN),
    description: z.string(),
    scope: SkillScopeSchema,
    hash: z.string().regex(/^[0-9a-f]{64}$/),
    files: z.array(z.object({ path: z.string(), bytes: z.number().int().nonnegative() })),
    installedAt: z.number(),
    /** Where it came from: a card or preset payload (its hash), or a user import. */
    source: z.object({ kind: z.enum(['import', 'card', 'preset']), payloadHash: z.string().optional() }).optional(),
});
export type SkillIndexEntry = z.infer<typeof SkillIndexEntrySchema>;

/** What a run sees of a skill: frozen at the run's start (journaled), read by hash from the cache. */
export const RunSkillSchema = z.object({
    name: z.string(),
    description: z.string(),
    scope: SkillScopeSchema,
    hash: z.string(),
    files: z.array(z.object({ path: z.string(), bytes: z.number().int().nonnegative() })),
});
export type RunSkill = z.infer<typeof RunSkillSchema>;

export type SkillConflict = 'new' | 'same' | 'different';

/** `TavernAgent.skills.preview` answers one of these per skill found in the input. */
export interface SkillPreview {
    name: string;
    description: string;
    files: number;
    bytes: number;
    conflict: SkillConflict;
    warnings: string[];
    /** Every file's path and size, listed by the install preview so a user sees what they install. */
    paths?: Array<{ path: string; bytes: number }>;
    /** Its files under `scripts/` with their sizes, listed by the install preview (issue 35); optional like `error`. */
    scripts?: SkillScriptFile[];
    /**
     * Wider scopes where a skill of the same name is installed (issue 39 §9): installed here, beside them, this
     * one is what runs read where this scope applies, so the install preview says it replaces them there.
     */
    replaces?: Array<(typeof SCOPE_ORDER)[number]>;
    /** Set when the skill is refused: names the entry or field. Nothing of it is installed. */
    error?: string;
    /** The refusal's code where a limit refused it (issue 39 §1). */
    code?: string;
}

export interface SkillImportResult {
    name: string;
    action: 'installed' | 'replaced' | 'skipped' | 'same';
    error?: string;
}

/** `TavernAgent.skills.list()` entries. */
export interface SkillListing {
    name: string;
    description: string;
    scope: SkillScope;
    files: string[];
    /** Total size of the files; optional so the public API's shape stays as issue 11 gives it. */
    bytes?: number;
    /** The files under `scripts/` with their sizes (issue 35: the manager shows them); optional like `bytes`. */
    scripts?: SkillScriptFile[];
}

/** A file a skill carries under `scripts/`: what `skill.run_script` may load (its `.js` modules) and their data. */
export interface SkillScriptFile {
    path: string;
    bytes: number;
}

/** A skill's files under `scripts/`, in the order given. */
export function scriptFilesOf(files: ReadonlyArray<{ path: string; bytes: number }>): SkillScriptFile[] {
    return files.filter((file) => file.path.startsWith('scripts/')).map((file) => ({ path: file.path, bytes: file.bytes }));
}

/** Input to the worker's parser: raw bytes with the name they came under (a zip, a SKILL.md, a file of a folder). */
export interface SkillSource {
    /** The file's name, or its relative path inside a picked folder (`my-skill/references/a.md`). */
    name: string;
    bytes: ArrayBuffer;
}

/** The worker's answer to parsing sources: per skill a bundle, or why it was refused. */
export interface ParsedSkill {
    /** The skill's name as far as it could be read (a folder name when SKILL.md is unreadable). */
    name: string;
    bundle: SkillBundle | null;
    warnings: string[];
    error?: string;
    /** Set when a limit refused it (issue 39 §1): `skill.too_many_files`, `skill.compression_ratio`, … */
    code?: string;
}

export function scopeKey(scope: SkillScope): string {
    if (scope === 'global') return 'global';
    if ('preset' in scope) return `preset:${scope.preset}`;
    if ('profile' in scope) return `profile:${scope.profile}`;
    return `character:${scope.character}`;
}

export const SCOPE_ORDER = ['global', 'preset', 'profile', 'character'] as const;

export function scopeKind(scope: SkillScope): (typeof SCOPE_ORDER)[number] {
    if (scope === 'global') return 'global';
    if ('preset' in scope) return 'preset';
    if ('profile' in scope) return 'profile';
    return 'character';
}
