import { matchesToolPattern } from '../../contract/profile';

/**
 * The profile editor's capability matrix: tools grouped by what they do, and what checking one does to the
 * profile's allow/deny patterns. Grouping is data: a tool falls into a group by its name (exact names
 * first, then its namespace prefix), so a tool added to the registry lands in its group with no change
 * here, and a namespace nobody named (another extension's tools) lands in "extensions".
 */

export const CAPABILITY_GROUPS = ['context', 'workspace-read', 'workspace-write', 'control', 'skills', 'agents', 'dice', 'extensions'] as const;
export type CapabilityGroup = (typeof CAPABILITY_GROUPS)[number];

/** Exact names before prefixes: the first rule that matches wins. */
const RULES: ReadonlyArray<{ group: CapabilityGroup; names?: readonly string[]; prefixes?: readonly string[] }> = [
    { group: 'control', names: ['workspace.commit', 'workspace.finish', 'task.return'] },
    { group: 'workspace-write', names: ['workspace.write_file', 'workspace.apply_patch'] },
    { group: 'workspace-read', prefixes: ['workspace.'] },
    { group: 'context', prefixes: ['chat.', 'memory.', 'worldinfo.'] },
    { group: 'skills', prefixes: ['skill.'] },
    { group: 'agents', prefixes: ['agent.', 'task.'] },
    { group: 'dice', prefixes: ['dice.'] },
];

export function groupOf(name: string): CapabilityGroup {
    for (const rule of RULES) {
        if (rule.names?.includes(name) || rule.prefixes?.some((prefix) => name.startsWith(prefix))) return rule.group;
    }
    return 'extensions';
}

/** The tools by group, in the groups' order; groups without tools are left out. */
export function groupTools(names: readonly string[]): Array<{ group: CapabilityGroup; tools: string[] }> {
    const sorted = [...names].sort();
    return CAPABILITY_GROUPS.map((group) => ({ group, tools: sorted.filter((name) => groupOf(name) === group) })).filter((entry) => entry.tools.length > 0);
}

export interface ToolPatterns {
    allow: string[];
    deny: string[];
}

/** Allowed as the engine decides it: some allow pattern matches ("chat.*" covers chat.search) and no deny pattern. */
export function toolAllowed(patterns: ToolPatterns, name: string): boolean {
    return patterns.allow.some((p) => matchesToolPattern(name, p)) && !patterns.deny.some((p) => matchesToolPattern(name, p));
}

/**
 * Checks or unchecks one tool, changing the patterns as little as possible: unchecking a tool a glob allows
 * denies it by name; checking a tool a glob denies replaces that glob by its other members, so nothing else
 * changes. Patterns that name no known tool are kept as they are.
 */
export function setToolAllowed(patterns: ToolPatterns, name: string, on: boolean, known: readonly string[]): ToolPatterns {
    let allow = [...patterns.allow];
    let deny = [...patterns.deny];
    if (on) {
        deny = deny.filter((p) => p !== name);
        for (const glob of deny.filter((p) => p !== name && matchesToolPattern(name, p))) {
            const others = known.filter((tool) => tool !== name && matchesToolPattern(tool, glob) && !deny.includes(tool));
            deny = [...deny.filter((p) => p !== glob), ...others];
        }
        if (!allow.some((p) => matchesToolPattern(name, p))) allow.push(name);
    } else {
        allow = allow.filter((p) => p !== name);
        if (allow.some((p) => matchesToolPattern(name, p)) && !deny.some((p) => matchesToolPattern(name, p))) deny.push(name);
    }
    // An allow glob whose every tool is denied by name allows nothing the user wants: both go.
    for (const glob of allow.filter((p) => p.endsWith('.*'))) {
        const members = known.filter((tool) => matchesToolPattern(tool, glob));
        if (members.length && members.every((tool) => deny.includes(tool))) allow = allow.filter((p) => p !== glob);
    }
    // A tool denied by name that no allow pattern covers any more needs no deny entry.
    deny = deny.filter((p) => p.includes('*') || !known.includes(p) || allow.some((a) => matchesToolPattern(p, a)));
    return { allow, deny };
}

/** All of a group's tools on or off. */
export function setGroupAllowed(patterns: ToolPatterns, tools: readonly string[], on: boolean, known: readonly string[]): ToolPatterns {
    return tools.reduce((current, name) => (toolAllowed(current, name) === on ? current : setToolAllowed(current, name, on, known)), patterns);
}
