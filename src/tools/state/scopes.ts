import * as z from 'zod';
import { STATE_LIMITS, type CapturedState, type StateScope } from '../../contract/state';
import { unwrapValues } from '../../state/mvu-data';
import { inferSchema, schemaOutline } from '../../state/mvu-schema';
import { presentScopes } from '../../state/state-view';
import { initvarDescriptions } from '../../state/initvar';
import { aliasOf, defineTool, success } from '../tool';
import { capturedState } from './access';

function size(value: unknown): string {
    const chars = (JSON.stringify(value) ?? '').length;
    return `${chars.toLocaleString('en-US')} chars`;
}

const keys = (value: Readonly<Record<string, unknown>>) => Object.keys(value).length;

/** One scope's paragraph: what it is, how big, and for MVU the outline of its structure. */
function describeScope(state: CapturedState, scope: StateScope): string {
    switch (scope) {
        case 'chat':
            return `chat — SillyTavern's chat variables, ${keys(state.chat!.values)} set (${size(state.chat!.values)}). Writable; follows swipes and deletions.`;
        case 'global':
            return `global — SillyTavern's global variables, ${keys(state.global!.values)} set (${size(state.global!.values)}). Writing one asks the user first: it is shared by every chat.`;
        case 'message': {
            const at = state.message!.messageIndex;
            return `message — Tavern Helper's message variables${at === null ? ' (none yet)' : ` as message #${at} left them`}, ${size(state.message!.values)}. Writes go to the reply you commit.`;
        }
        case 'mvu': {
            const mvu = state.mvu!;
            const source = mvu.messageIndex === null ? 'MVU is loaded, no snapshot yet' : `snapshot of message #${mvu.messageIndex}`;
            const descriptions = { ...initvarDescriptions(mvu.initvar ?? []), ...mvu.descriptions };
            const outline = schemaOutline(mvu.schema ?? inferSchema(unwrapValues(mvu.statData ?? {})), descriptions, STATE_LIMITS.outlineChars);
            return [
                `mvu — MVU (MagVarUpdate) state, ${source}, ${size(mvu.statData ?? {})}. Paths start with /stat_data. Writes become an MVU update block at the end of your reply, which MVU applies.`,
                'Structure:',
                outline,
            ].join('\n');
        }
        case 'tracker':
            return `tracker — SillyTavern-Tracker's tracker of message #${state.tracker!.messageIndex}, ${size(state.tracker!.value)}. Read-only.`;
    }
}

export const stateScopesTool = defineTool({
    name: 'state.scopes',
    alias: aliasOf('state.scopes'),
    description:
        'Lists the state systems this chat keeps (chat and global variables, Tavern Helper message variables, MVU, Tracker), with their size and, for MVU, the structure and what each value means. Call it before state_get or state_patch.',
    args: z.object({}),
    readOnly: true,
    async execute(_args, context) {
        const state = capturedState(context);
        const scopes = presentScopes(state);
        const parts = scopes.map((scope) => describeScope(state, scope));
        if (state.tooLarge.length) parts.push(`Too large to read here: ${state.tooLarge.join(', ')}.`);
        if (!parts.length) parts.push('This chat keeps no state the tools can read.');
        parts.push('State is as it stood before the reply you are writing; your writes are staged and reach the chat only with your commit.');
        return success(parts.join('\n\n'), { scopes });
    },
});
