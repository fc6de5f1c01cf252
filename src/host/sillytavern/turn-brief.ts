import { stContext } from './st-context';

/**
 * A director's brief inside SillyTavern's own generation (issue 34): an extension prompt in the chat,
 * `depth` messages from its end, with a `role`. It is meant for one generation: it goes when that generation
 * ends or is stopped, and, should neither event come, before the next generation starts (the generate
 * interceptor removes it first thing).
 */
const BRIEF_PROMPT_KEY = 'tavern_agent_brief';

/** ST's `extension_prompt_types.IN_CHAT` and `extension_prompt_roles` (script.js; the same since 1.11). */
const IN_CHAT = 1;
const ROLES = { system: 0, user: 1, assistant: 2 } as const;

export interface BriefPlacement {
    depth: number;
    role: keyof typeof ROLES;
}

let injected: { stop(): void } | null = null;

export function injectTurnBrief(text: string, placement: BriefPlacement): void {
    removeTurnBrief();
    const context = stContext();
    context.setExtensionPrompt(BRIEF_PROMPT_KEY, text, IN_CHAT, placement.depth, false, ROLES[placement.role]);
    const { eventSource, eventTypes } = context;
    const done = () => removeTurnBrief();
    eventSource.on(eventTypes.GENERATION_ENDED!, done);
    eventSource.on(eventTypes.GENERATION_STOPPED!, done);
    injected = {
        stop() {
            eventSource.removeListener(eventTypes.GENERATION_ENDED!, done);
            eventSource.removeListener(eventTypes.GENERATION_STOPPED!, done);
        },
    };
}

/** Removes the brief, if one is in; cheap when none is (it is called at the start of every generation). */
export function removeTurnBrief(): void {
    if (!injected) return;
    injected.stop();
    injected = null;
    const prompts = stContext().extensionPrompts;
    if (prompts && BRIEF_PROMPT_KEY in prompts) delete prompts[BRIEF_PROMPT_KEY];
}
