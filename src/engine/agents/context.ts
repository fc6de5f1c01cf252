import type { Profile } from '../../contract/profile';
import type { RunInput, WorldInfoEntry } from '../../contract/run-input';

type PromptMessage = RunInput['prompt'][number];

/**
 * Applies a profile's context settings to the prompt SillyTavern assembled (the run's starting context):
 * - `historyMessages` N ≥ 0 keeps the last N chat messages (user/assistant) and always the final message,
 *   the turn being answered; system messages (card, persona, instructions) stay. -1 keeps everything.
 * - `includeWorldInfo: false` removes the text of this turn's activated entries from the prompt; the agent
 *   can still read them with worldinfo.read_activated.
 */
export function applyContextSettings(prompt: readonly PromptMessage[], context: Profile['context'], entries: readonly WorldInfoEntry[]): PromptMessage[] {
    let messages = prompt.map((message) => ({ ...message }));
    if (!context.includeWorldInfo) {
        const contents = entries.map((entry) => entry.content.trim()).filter((content) => content.length > 0);
        messages = messages
            .map((message) => {
                let text = message.content ?? '';
                for (const content of contents) text = text.split(content).join('');
                return { ...message, content: text.replace(/\n{3,}/g, '\n\n').trim() };
            })
            .filter((message) => message.role !== 'system' || (message.content ?? '').length > 0);
    }
    if (context.historyMessages >= 0) {
        const chatIndexes = messages.flatMap((message, index) => (message.role === 'system' ? [] : [index]));
        const last = messages.length - 1;
        const keep = new Set(chatIndexes.slice(chatIndexes.length - context.historyMessages));
        if (context.historyMessages === 0) keep.clear();
        keep.add(last);
        messages = messages.filter((message, index) => message.role === 'system' || keep.has(index));
    }
    return messages;
}
