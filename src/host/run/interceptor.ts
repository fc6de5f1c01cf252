import { currentChatAgentState } from '../settings/agent-mode';
import { removeTurnBrief } from '../sillytavern/turn-brief';

/** The name SillyTavern looks up on globalThis; it must match manifest.json's `generate_interceptor`. */
export const INTERCEPTOR_NAME = 'tavernAgentGenerateInterceptor';

/** Generation types that become agent runs when Agent Mode is on; everything else is left to SillyTavern. */
const AGENT_GENERATION_TYPES: ReadonlySet<string> = new Set(['normal', 'regenerate', 'swipe']);

export type GenerateInterceptor = (
    chat: unknown[],
    contextSize: number,
    abort: (immediately: boolean) => void,
    type: string,
) => Promise<void>;

/**
 * With Agent Mode off this returns at once and touches nothing (but a director's brief left over from an
 * earlier generation), so SillyTavern generates exactly as it would without the extension. The agent runtime plugs its run in through `takeOver`.
 */
export function createGenerateInterceptor(takeOver: GenerateInterceptor | null): GenerateInterceptor {
    return async (chat, contextSize, abort, type) => {
        // A director's brief is meant for the one generation it was made for (issue 34): never a later one.
        removeTurnBrief();
        if (!AGENT_GENERATION_TYPES.has(type)) return;
        if (!currentChatAgentState().enabled) return;
        if (takeOver) await takeOver(chat, contextSize, abort, type);
    };
}
