import * as z from 'zod';
import { toolError } from '../../contract/errors';
import type { LoreEntry } from '../../contract/lore';
import { MAX_CALL_CHARS, MAX_RANGE_CHARS, MAX_READ_ITEMS } from '../chat/read-messages';
import { aliasOf, defineTool, failure } from '../tool';
import { entriesByRef, lookUpAll, readEntries } from './entry-text';
import { booksText, runLore } from './lore-scope';

const args = z.object({
    entries: z
        .array(
            z.object({
                ref: z.string().min(1).describe('An entry ref from worldinfo_search or worldinfo_read_activated, e.g. "worldinfo:Eldoria#12".'),
                start_char: z.number().int().optional().describe('0-based char offset inside the entry content where the range starts. Default 0.'),
                max_chars: z.number().int().optional().describe(`Most chars to read from start_char (1–${MAX_RANGE_CHARS}). Default: to the end of the entry.`),
            }),
        )
        .min(1)
        .describe(`Entries to read, at most ${MAX_READ_ITEMS}: whole (up to ${MAX_RANGE_CHARS} chars each) or ranges of up to ${MAX_RANGE_CHARS} chars; at most ${MAX_CALL_CHARS} chars a call.`),
});

export const worldInfoReadTool = defineTool({
    name: 'worldinfo.read',
    alias: aliasOf('worldinfo.read'),
    description: [
        "Reads any enabled entry of this chat's lorebooks by ref (\"worldinfo:<book>#<uid>\", from worldinfo_search), activated this turn or not, as it was when the run started.",
        `Whole entries or char ranges (start_char + max_chars). Limits: at most ${MAX_READ_ITEMS} entries a call, ${MAX_RANGE_CHARS} chars per entry or range, ${MAX_CALL_CHARS} chars a call.`,
    ].join(' '),
    args,
    readOnly: true,
    async execute(input, { input: runInput }) {
        const scope = runLore(runInput);
        if (!scope.ok) return scope.outcome;
        const { lore } = scope;
        const byRef = entriesByRef(lore.entries);
        const { found, unknown } = lookUpAll(byRef, input.entries);
        if (unknown.length > 0) {
            return failure(
                toolError(
                    'worldinfo.entry_not_found',
                    `No enabled entr${unknown.length === 1 ? 'y' : 'ies'} ${unknown.map((ref) => JSON.stringify(ref)).join(', ')} in this chat's lorebooks (${lore.entries.length} enabled entries).`,
                    lore.entries.length === 0
                        ? `There is nothing to read: ${booksText(lore)}.`
                        : 'Find refs with worldinfo_search; a ref is "worldinfo:<book>#<uid>" with the exact book name. Disabled entries cannot be read.',
                ),
            );
        }
        return readEntries(found, input.entries);
    },
});
