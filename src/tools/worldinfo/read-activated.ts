import * as z from 'zod';
import { toolError } from '../../contract/errors';
import type { WorldInfoEntry } from '../../contract/run-input';
import { MAX_CALL_CHARS, MAX_RANGE_CHARS, MAX_READ_ITEMS } from '../chat/read-messages';
import { entriesByRef, entryRef, keysText, lookUpAll, readEntries, titleOf } from './entry-text';
import { aliasOf, defineTool, failure, success } from '../tool';

/** The listing stays a bounded result even for a huge activation; entries past it can still be read by ref. */
const MAX_LIST_CHARS = 30_000;
const REFS_IN_HINT = 5;

export function worldInfoRef(entry: WorldInfoEntry): string {
    return entryRef(entry);
}

function listLine(entry: WorldInfoEntry): string {
    return `${worldInfoRef(entry)} · book ${JSON.stringify(entry.book)} · title ${titleOf(entry)} · ${keysText(entry.keys)} · ${entry.content.length} chars${entry.constant ? ' · constant' : ''}`;
}

const args = z.object({
    entries: z
        .array(
            z.object({
                ref: z.string().min(1).describe('An entry ref from the listing, e.g. "worldinfo:Eldoria#12".'),
                start_char: z.number().int().optional().describe('0-based char offset inside the entry content where the range starts. Default 0.'),
                max_chars: z.number().int().optional().describe(`Most chars to read from start_char (1–${MAX_RANGE_CHARS}). Default: to the end of the entry.`),
            }),
        )
        .optional()
        .describe(
            `Entries to read, at most ${MAX_READ_ITEMS}: whole (up to ${MAX_RANGE_CHARS} chars each) or ranges of up to ${MAX_RANGE_CHARS} chars; at most ${MAX_CALL_CHARS} chars a call. Leave out to list the activated entries.`,
        ),
});

export const readActivatedTool = defineTool({
    name: 'worldinfo.read_activated',
    alias: aliasOf('worldinfo.read_activated'),
    description: [
        "Reads the world-info (lorebook) entries SillyTavern activated for this run's turn, as frozen when the run started.",
        'Without arguments: lists each activated entry as a ref "worldinfo:<book>#<uid>" with its book, title, keys and length (no content).',
        `With entries: returns their content, whole or as char ranges (start_char + max_chars). Limits: at most ${MAX_READ_ITEMS} entries a call, ${MAX_RANGE_CHARS} chars per entry or range, ${MAX_CALL_CHARS} chars a call.`,
        'No activated entries is a normal answer, not an error.',
    ].join(' '),
    args,
    readOnly: true,
    async execute(input, { input: runInput }) {
        const { captured, entries } = runInput.worldInfo;
        if (!captured) {
            return failure(
                toolError(
                    'worldinfo.activation_unavailable',
                    "The world-info activation of this run's turn was not captured, so its activated entries are unknown.",
                    'Work from the prompt and the chat (chat_search, chat_read_messages); calling worldinfo_read_activated again will not help in this run.',
                ),
            );
        }
        const byRef = entriesByRef(entries);
        const activated = [...byRef.values()];

        if (input.entries === undefined || input.entries.length === 0) {
            if (activated.length === 0) {
                return success('No world-info entries were activated for this turn: there is nothing to read.', { activated: 0, listed: 0 });
            }
            const lines: string[] = [];
            let size = 0;
            for (const entry of activated) {
                const line = listLine(entry);
                if (size + line.length > MAX_LIST_CHARS) break;
                lines.push(line);
                size += line.length + 1;
            }
            const count = `${activated.length} world-info entr${activated.length === 1 ? 'y was' : 'ies were'} activated for this turn`;
            const more = lines.length < activated.length ? ` (listing the first ${lines.length}; the rest can still be read by ref)` : '';
            const header = `${count}${more}. Read content with entries: [{"ref": "<ref>"}].`;
            return success([header, ...lines].join('\n'), {
                activated: activated.length,
                listed: lines.length,
                refs: activated.map(worldInfoRef),
            });
        }

        const { found, unknown } = lookUpAll(byRef, input.entries);
        if (unknown.length > 0) {
            const valid = activated.slice(0, REFS_IN_HINT).map(worldInfoRef);
            return failure(
                toolError(
                    'worldinfo.entry_not_found',
                    `No activated world-info entr${unknown.length === 1 ? 'y' : 'ies'} ${unknown.map((ref) => JSON.stringify(ref)).join(', ')} in this turn (${activated.length} activated).`,
                    activated.length === 0
                        ? 'No entries were activated for this turn: there is nothing to read.'
                        : `Valid refs include ${valid.map((ref) => JSON.stringify(ref)).join(', ')}${activated.length > valid.length ? ', …' : ''}. Call worldinfo_read_activated without arguments to list them all.`,
                ),
            );
        }

        return readEntries(found, input.entries);
    },
});
