import { STATE_LIMITS, type CapturedState, type StateScope } from '../../contract/state';
import { pairDescriptions } from '../../state/mvu-data';
import { stContext, type ChatMessage } from '../sillytavern/st-context';
import { chatVariablesBefore } from './chat-variables';
import { INITVAR_LIMITS, isInitvarComment } from '../../state/initvar-entry';
import { loadedStateSystems } from '../sillytavern/state-systems';
import { isMvuSnapshot, messageTable, messageTracker } from './message-variables';

/**
 * Freezes the chat's state systems for a run (issue 36), as they stood before its reply: on the shown swipes
 * of the messages before it (`visible`), never the tip of another branch. Each scope is bounded: one over
 * STATE_LIMITS.scopeChars is left out and named, so a card cannot make every run carry megabytes.
 */
export function captureState(visible: readonly ChatMessage[], loadedLore: unknown): CapturedState {
    const context = stContext();
    const systems = loadedStateSystems();
    const tooLarge: StateScope[] = [];
    const bounded = <T>(scope: StateScope, value: T | null): T | null => {
        if (value === null) return null;
        if ((JSON.stringify(value) ?? '').length <= STATE_LIMITS.scopeChars) return value;
        tooLarge.push(scope);
        return null;
    };

    const hasVariables = Boolean((context as unknown as { variables?: unknown }).variables); // absent before ST 1.19's context API
    const chat = hasVariables ? bounded('chat', { values: chatVariablesBefore(visible.length) }) : null;
    const globalTable = (context.extensionSettings.variables as { global?: unknown } | undefined)?.global;
    const global = hasVariables ? bounded('global', { values: globalTable && typeof globalTable === 'object' ? { ...(globalTable as Record<string, unknown>) } : {} }) : null;

    let message: CapturedState['message'] = null;
    let mvu: CapturedState['mvu'] = null;
    let tracker: CapturedState['tracker'] = null;
    for (let index = visible.length - 1; index >= 0 && (!message || !mvu || !tracker); index--) {
        const table = messageTable(visible[index]!);
        if (!message && table) message = { values: structuredClone(table), messageIndex: index };
        if (!mvu && isMvuSnapshot(table)) {
            mvu = { statData: structuredClone(table.stat_data), schema: structuredClone(table.schema), messageIndex: index, loaded: systems.mvu, descriptions: {} };
        }
        const found: unknown = tracker ? undefined : messageTracker(visible[index]!);
        if (found !== undefined) tracker = { value: structuredClone(found), messageIndex: index };
    }
    if (!message && systems.tavernHelper) message = { values: {}, messageIndex: null };
    if (!mvu && systems.mvu) mvu = { statData: null, schema: null, messageIndex: null, loaded: true, descriptions: {} };
    if (mvu) {
        mvu.descriptions = pairDescriptions(mvu.statData ?? {});
        const initvar = initvarTexts(loadedLore);
        if (initvar.length) mvu.initvar = initvar;
    }

    return { chat, global, message: bounded('message', message), mvu: bounded('mvu', mvu), tracker: bounded('tracker', tracker), tooLarge };
}

/** The `[initvar]` entries of the books this turn loaded (disabled ones count: MVU reads them too), bounded. */
function initvarTexts(loaded: unknown): string[] {
    if (!loaded || typeof loaded !== 'object') return [];
    const entries = Object.values(loaded as Record<string, unknown>).flatMap((book) => (Array.isArray(book) ? (book as Array<{ comment?: unknown; content?: unknown }>) : []));
    return entries
        .filter((entry) => isInitvarComment(entry.comment) && typeof entry.content === 'string' && entry.content.length <= INITVAR_LIMITS.entryChars)
        .slice(0, INITVAR_LIMITS.entries)
        .map((entry) => entry.content as string);
}
