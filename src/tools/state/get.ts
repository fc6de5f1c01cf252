import * as z from 'zod';
import { toolError } from '../../contract/errors';
import { STATE_LIMITS, StateScopeSchema } from '../../contract/state';
import { formatPointer, isContainer, parsePointer, valueAt } from '../../state/json-pointer';
import { currentView } from '../../state/state-view';
import { aliasOf, defineTool, failure, success } from '../tool';
import { capturedState, jsonText, SCOPE_DESCRIPTION, stateFailure } from './access';

/** What would fit of a value too large to read whole: its children with their sizes. */
function childSizes(value: unknown, path: string): string {
    if (!isContainer(value)) return '';
    const entries = Array.isArray(value) ? value.map((item, index) => [String(index), item] as const) : Object.entries(value);
    const listed = entries.slice(0, 40).map(([key, child]) => `${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')} (${(JSON.stringify(child) ?? '').length} chars)`);
    return ` Read a part instead: ${listed.join(', ')}${entries.length > 40 ? `, … ${entries.length - 40} more` : ''}.`;
}

export const stateGetTool = defineTool({
    name: 'state.get',
    alias: aliasOf('state.get'),
    description: `Reads state as it stood before the reply you are writing (on this branch of the chat), with your staged writes applied. ${SCOPE_DESCRIPTION} path is a JSON Pointer (/hp, /stat_data/inventory/0); omit it for the whole scope. At most ${STATE_LIMITS.readChars.toLocaleString('en-US')} characters a call.`,
    args: z.object({
        scope: StateScopeSchema.describe('Which state: chat, global, message, mvu or tracker.'),
        path: z.string().max(2000).optional().describe('A JSON Pointer into the scope, e.g. /hp or /stat_data/hp. Omit it for the whole scope.'),
    }),
    readOnly: true,
    async execute(args, context) {
        const view = currentView(capturedState(context), args.scope, context.state?.changes() ?? []);
        if (!view.ok) return stateFailure(view);
        const tokens = parsePointer(args.path ?? '');
        if (!tokens.ok) return stateFailure(tokens);
        const found = valueAt(view.value, tokens.value);
        const path = formatPointer(tokens.value);
        if (!found.found) {
            return failure(toolError('state.path_not_found', `Nothing is at ${formatPointer(found.missing)} in the ${args.scope} state.`, 'Read the parent path (or the whole scope) to see which keys exist.'));
        }
        const text = jsonText(found.value);
        if (text.length > STATE_LIMITS.readChars) {
            return failure(
                toolError('state.read_too_large', `${path || 'The whole scope'} is ${text.length.toLocaleString('en-US')} characters, over the ${STATE_LIMITS.readChars.toLocaleString('en-US')} a read may return.`, `Read a smaller path.${childSizes(found.value, path)}`),
            );
        }
        return success(`${args.scope}${path || ' (whole scope)'}:\n${text}`, { scope: args.scope, path });
    },
});
