/**
 * On a Text Completion connection SillyTavern's dry run builds one formatted string, not chat messages, so
 * the run's starting context is taken from its parts instead: the story string (the context template
 * rendered with card, persona, scenario and world info) as the system part, then the chat as messages.
 * The text route formats them again with the instruct template, around the agent's own turns.
 */
export interface CombinePromptsData {
    storyString?: unknown;
}

export function createTextPromptCapture() {
    let storyString: string | null = null;
    return {
        onBeforeCombine(data: CombinePromptsData): void {
            if (typeof data?.storyString === 'string') storyString = data.storyString;
        },
        /** The starting prompt, or null when no dry run reached prompt assembly. */
        result(chat: ReadonlyArray<{ role: string; text: string; name: string; hidden: boolean }>): Array<{ role: 'system' | 'user' | 'assistant'; content: string; name?: string }> | null {
            if (storyString === null) return null;
            const messages = chat
                .filter((m) => !m.hidden && (m.role === 'user' || m.role === 'assistant'))
                .map((m) => ({ role: m.role as 'user' | 'assistant', content: m.text, ...(m.name ? { name: m.name } : {}) }));
            return [...(storyString.trim() ? [{ role: 'system' as const, content: storyString.trim() }] : []), ...messages];
        },
    };
}
