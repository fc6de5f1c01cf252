import { parse as parseYaml } from 'yaml';
import { INITVAR_LIMITS } from './initvar-entry';
import { pairDescriptions } from './mvu-data';

/**
 * The descriptions MVU's `[initvar]` lore entries give (design note §3.4), so the model knows what each value
 * means without a rule prompt. An entry's content is JSON or YAML, or an `<initvar>` block of it; the page
 * hands the texts over bounded (initvar-entry.ts), and one that does not parse is skipped. Parsed in the worker.
 */
function parse(text: string): unknown {
    try {
        return JSON.parse(text) as unknown;
    } catch {
        try {
            return parseYaml(text, { maxAliasCount: 50 }) as unknown;
        } catch {
            return null;
        }
    }
}

export function initvarDescriptions(texts: readonly string[]): Record<string, string> {
    const found: Record<string, string> = {};
    for (const content of texts.slice(0, INITVAR_LIMITS.entries)) {
        if (content.length > INITVAR_LIMITS.entryChars) continue;
        const block = /<initvar>([\s\S]*?)<\/initvar>/i.exec(content)?.[1] ?? content;
        Object.assign(found, pairDescriptions(parse(block.trim())));
    }
    return found;
}
