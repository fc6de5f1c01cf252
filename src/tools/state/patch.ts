import * as z from 'zod';
import { STATE_LIMITS, StatePatchOpSchema, StateScopeSchema } from '../../contract/state';
import { aliasOf, defineTool } from '../tool';
import { SCOPE_DESCRIPTION } from './access';
import { stageChange } from './stage';

const reason = z.string().max(500).optional().describe('Why, in a few words (shown to the user; MVU keeps it as the analysis).');

export const statePatchTool = defineTool({
    name: 'state.patch',
    alias: aliasOf('state.patch'),
    description: `Changes state with JSON-Patch ops in MVU's dialect: replace (set), delta (add a number), insert (add; "-" appends to a list), remove, move (from → path). ${SCOPE_DESCRIPTION} Paths are JSON Pointers. The change is staged: later reads see it, and it reaches the chat only with your commit. At most ${STATE_LIMITS.opsPerCall} ops a call.`,
    args: z.object({
        scope: StateScopeSchema.describe('Which state: chat, global, message or mvu (tracker is read-only).'),
        ops: z.array(StatePatchOpSchema).min(1).max(STATE_LIMITS.opsPerCall).describe('The ops in order, e.g. [{"op":"delta","path":"/stat_data/hp","value":-3}].'),
        reason,
    }),
    readOnly: false,
    async execute(args, context) {
        return stageChange(context, args.scope, args.ops, args.reason ?? null, 'state.patch', args);
    },
});

export const stateSetTool = defineTool({
    name: 'state.set',
    alias: aliasOf('state.set'),
    description: `Sets one value of the state (a replace op). ${SCOPE_DESCRIPTION} The change is staged: later reads see it, and it reaches the chat only with your commit.`,
    args: z.object({
        scope: StateScopeSchema.describe('Which state: chat, global, message or mvu (tracker is read-only).'),
        path: z.string().min(1).max(2000).describe('A JSON Pointer, e.g. /hp or /stat_data/location.'),
        value: z.unknown().describe('The new value: any JSON value.'),
        reason,
    }),
    readOnly: false,
    async execute(args, context) {
        return stageChange(context, args.scope, [{ op: 'replace', path: args.path, value: args.value }], args.reason ?? null, 'state.set', args);
    },
});
