import * as z from 'zod';

/**
 * An agent profile (SPEC §5). This is the subset the runtime enforces today; the profiles issue adds the
 * editor, storage, import/export and the remaining fields, with migrations from this version.
 */
export const ProfileSchema = z.object({
    version: z.literal(1),
    id: z.string().regex(/^[a-z0-9_-]{1,64}$/),
    displayName: z.string().min(1),
    description: z.string(),
    presentation: z.enum(['foreground', 'background']),
    tools: z.object({
        /** Canonical names; "*" or "namespace.*" match many. Deny wins. */
        allow: z.array(z.string()),
        deny: z.array(z.string()),
        maxRounds: z.number().int().min(1).max(500),
        maxCallsPerRun: z.number().int().min(1).max(2000),
        maxCallsPerTool: z.record(z.string(), z.number().int().min(0)),
    }),
    /** How many times a model that answers in plain text is reminded to use tools before the run fails. */
    maxToolReminders: z.number().int().min(0).max(10),
    /** Extra instructions placed after the built-in agent instructions. */
    systemPrompt: z.string(),
});
export type Profile = z.infer<typeof ProfileSchema>;

export const WRITER_PROFILE: Profile = {
    version: 1,
    id: 'writer',
    displayName: 'Writer',
    description: 'Drafts the reply in its workspace, revises it, and commits one clean message.',
    presentation: 'foreground',
    tools: {
        allow: ['chat.*', 'worldinfo.*', 'skill.*', 'workspace.*'],
        deny: [],
        maxRounds: 80,
        maxCallsPerRun: 80,
        maxCallsPerTool: {},
    },
    maxToolReminders: 2,
    systemPrompt: '',
};

/** Whether a canonical tool name matches a profile pattern ("*", "workspace.*" or an exact name). */
export function matchesToolPattern(name: string, pattern: string): boolean {
    if (pattern === '*') return true;
    if (pattern.endsWith('.*')) return name.startsWith(pattern.slice(0, -1));
    return name === pattern;
}

export function isToolAllowed(profile: Profile, name: string): boolean {
    const allowed = profile.tools.allow.some((pattern) => matchesToolPattern(name, pattern));
    const denied = profile.tools.deny.some((pattern) => matchesToolPattern(name, pattern));
    return allowed && !denied;
}

const BUILT_IN_PROFILES: readonly Profile[] = [WRITER_PROFILE];

export function builtInProfile(id: string): Profile | undefined {
    return BUILT_IN_PROFILES.find((profile) => profile.id === id);
}
