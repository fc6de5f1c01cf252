import { fail, ok, type Result } from './result';
import { sha256HexOf } from './sha256';
import type { ParsedSkill, SkillPreview } from './skills';

// A card's or preset's skills payload before Install (issue 39 §1): its limits, the bounded walk the page
// makes before handing it to the card reader, the reader's answers, and the payload's identity.

/**
 * Limits of a skills payload a card or preset carries (issue 39 §1). A card arrives with a chat, before the
 * user has said yes to anything, so every size is capped before it is read, and each cap that refuses
 * says its own code and limit.
 */
export const PAYLOAD_LIMITS = {
    /** The payload's text: inline contents and base64 archives together, in characters. */
    maxPayloadChars: 32 * 1024 * 1024,
    /** Skills in one payload (items, and the skills inside their archives). */
    maxSkills: 64,
    /** Everything a payload unpacks to: inline files decoded and archive entries as declared. */
    maxUnpackedBytes: 128 * 1024 * 1024,
    /** SKILL.md's front matter block. */
    maxFrontMatterBytes: 16 * 1024,
    maxFrontMatterKeys: 64,
    /** YAML aliases expanded while reading one front matter (a "billion laughs" stops here). */
    maxYamlAliases: 100,
    /** How long reading a payload may take in its throwaway worker: the names, then the full parse. */
    scanMs: 15_000,
    parseMs: 60_000,
} as const;

/** The coded refusals of a card's payload, each naming the limit it hit. */
export type PayloadLimitCode =
    | 'skill.payload_too_large'
    | 'skill.too_many_skills'
    | 'skill.too_many_files'
    | 'skill.front_matter_too_large'
    | 'skill.front_matter_keys'
    | 'skill.yaml_aliases'
    | 'skill.unpacked_too_large'
    | 'skill.compression_ratio'
    | 'skill.payload_timeout';

/** What the install popup shows of a card's skill before Install: no content hash, nothing else inflated. */
export type ScannedSkill = Omit<SkillPreview, 'conflict' | 'replaces'>;

export interface PayloadScan {
    /** The payload's identity ("Not now" is remembered by it; Install checks the payload is still this one). */
    hash: string;
    skills: ScannedSkill[];
}

/**
 * Where the reader gets a payload. A card's it fetches itself from SillyTavern's server: handing 32 MiB to a
 * worker costs the page ~270 ms of structured clone (measured, bench figure 17), fetching costs it nothing.
 * A preset's (no endpoint serves one preset) comes with the message.
 */
export type PayloadSource = { payload: unknown } | { card: { avatar: string; headers: Record<string, string> } };

/** The card reader's worker (src/card-reader-worker.ts), started for one payload and thrown away after. */
export interface CardReaderApi {
    /** The payload's hash and its skills' names, read from SKILL.md and declared sizes only. */
    scan(source: PayloadSource): Promise<Result<PayloadScan>>;
    /** The full parse, after Install, with the hash it was made of (the offer must still be this payload). */
    parse(source: PayloadSource): Promise<Result<{ hash: string; skills: ParsedSkill[] }>>;
}

/**
 * The skills payload a character card carries (TauriTavern's `extensions.tauritavern.skills`), or null:
 * cards V2/V3 keep extensions under `data`, older shapes at the top level.
 */
export function cardSkillsPayload(character: unknown): unknown {
    if (!isObject(character)) return null;
    const data = isObject(character.data) ? character.data : null;
    for (const extensions of [data?.extensions, character.extensions]) {
        const tauri = isObject(extensions) && isObject(extensions.tauritavern) ? extensions.tauritavern : null;
        if (tauri && tauri.skills !== undefined && tauri.skills !== null) return tauri.skills;
    }
    return null;
}

/** A JSON object (not an array, not null): what every field of a payload is checked to be. */
export function isObject(value: unknown): value is Record<string, unknown> {
    return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Whole mebibytes, the way the limits are written ("32 MiB"). */
function mebibytes(bytes: number): string {
    return `${Math.round(bytes / 1024 / 1024)} MiB`;
}

/** Entries a walk of one inline item may list (an archive's limit): the walk itself stays bounded. */
const MAX_ITEM_FILES = 10_000;

/** How many characters of text a payload carries, walked within fixed bounds (safe on the page). */
export function measurePayload(payload: unknown): Result<{ chars: number }> {
    if (!isObject(payload) || !Array.isArray(payload.items)) return ok({ chars: 0 });
    if (payload.items.length > PAYLOAD_LIMITS.maxSkills) {
        return fail('skill.too_many_skills', `The card's skills payload has ${payload.items.length} items, over the limit of ${PAYLOAD_LIMITS.maxSkills} skills a payload.`);
    }
    let chars = 0;
    for (const item of payload.items) {
        if (!isObject(item)) continue;
        if (typeof item.contentBase64 === 'string') chars += item.contentBase64.length;
        if (Array.isArray(item.files)) {
            if (item.files.length > MAX_ITEM_FILES) return fail('skill.too_many_files', `The card's skills payload lists ${item.files.length} files in one item, over the limit of ${MAX_ITEM_FILES}.`);
            for (const file of item.files) if (isObject(file) && typeof file.content === 'string') chars += file.content.length;
        }
    }
    if (chars > PAYLOAD_LIMITS.maxPayloadChars) {
        return fail('skill.payload_too_large', `The card's skills payload is ${chars.toLocaleString('en-US')} characters, over the ${mebibytes(PAYLOAD_LIMITS.maxPayloadChars)} limit of a payload.`);
    }
    return ok({ chars });
}


/** JSON with object keys sorted, so a payload read back from a card or preset hashes the same. */
export function canonicalJson(value: unknown): string {
    if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item === undefined ? null : item)).join(',')}]`;
    if (value && typeof value === 'object') {
        const entries = Object.entries(value as Record<string, unknown>)
            .filter(([, v]) => v !== undefined)
            .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
        return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
    }
    return JSON.stringify(value) ?? 'null';
}

/**
 * The identity of an embedded payload: "Not now" is remembered per payload hash, so an updated card asks
 * again. WebCrypto digests natively and asynchronously; the text is the card's own JSON, small beside a zip.
 */
export async function payloadHash(payload: unknown): Promise<string> {
    return sha256HexOf(new TextEncoder().encode(canonicalJson(payload)));
}
