/**
 * Limits of one skill package (design/SKILLS-FORMAT.md): TauriTavern's, or tighter where a browser store
 * should be. Every archive entry is checked against them from its declared sizes before it is inflated.
 */
export const SKILL_LIMITS = {
    /** Files of one skill. */
    maxFiles: 1_000,
    maxFileBytes: 16 * 1024 * 1024,
    /** All files of one skill together (TauriTavern allows 256 MiB an archive; a browser cache should not). */
    maxSkillBytes: 64 * 1024 * 1024,
    maxSkillMdBytes: 1024 * 1024,
    /** Uncompressed ÷ compressed of one zip entry. */
    maxCompressionRatio: 100,
    /**
     * Entries smaller than this skip the ratio check: a few hundred bytes of repeated text compress past 100×
     * legitimately, and inflating them cannot hurt. A bomb has to be large to matter.
     */
    ratioCheckFromBytes: 64 * 1024,
    /** A whole archive (one or many skills). */
    maxArchiveEntries: 10_000,
    maxArchiveBytes: 256 * 1024 * 1024,
    /** A skill's description: it is listed in every run's skill index and kept in settings.json (issue 39 §9). */
    maxDescriptionChars: 1_024,
    /** One file's path inside its skill, as the index in settings.json keeps it. */
    maxPathChars: 512,
} as const;

// A card payload's own limits live in contract/card-payload.ts: the page checks them before any parser runs.
export { PAYLOAD_LIMITS, type PayloadLimitCode } from '../contract/card-payload';

/** Front matter names longer than this work, but break the agentskills.io convention. */
export const CONVENTIONAL_NAME_LENGTH = 64;

export function formatBytes(bytes: number): string {
    if (bytes < 1024) return `${bytes} B`;
    if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(bytes < 10 * 1024 ? 1 : 0)} KiB`;
    return `${(bytes / 1024 / 1024).toFixed(bytes < 10 * 1024 * 1024 ? 1 : 0)} MiB`;
}

/** An exact size for messages about a limit: "16 MiB is over 16 MiB" would say nothing. */
export function exactBytes(bytes: number): string {
    return `${bytes.toLocaleString('en-US')} bytes`;
}

