// The demo's scenarios: which words in the user's message choose which one. README.md and docs/demo.md name
// what to type for each; tests/unit/demo-model.test.ts holds the docs to these words.

export type ScenarioId = 'delegate' | 'lore' | 'roll' | 'approve' | 'script' | 'state' | 'fix' | 'director' | 'keeper' | 'help' | 'default';

export interface Scenario {
    id: ScenarioId;
    /** Words that choose it, whole words, any case. */
    words: readonly string[];
    /** A message to type that chooses it: what the docs show. */
    example: string;
}

/** In order: the first scenario with a word in the message wins. */
export const SCENARIOS: readonly Scenario[] = [
    { id: 'delegate', words: ['delegate', 'research', 'researcher', 'sub-agent', 'subagent'], example: 'Delegate: what do the chat and the lore say about the Shadowfangs?' },
    { id: 'lore', words: ['lore', 'lorebook', 'remember'], example: 'Tell me about the Moonwell, and remember it in the lore.' },
    { id: 'roll', words: ['roll', 'dice', 'd20', 'luck'], example: 'I try to climb the old oak. Roll for it!' },
    { id: 'approve', words: ['approve', 'approval', 'lantern', 'lanterns', 'extension'], example: 'Light the lanterns, please.' },
    { id: 'script', words: ['script', 'skill', 'omen', 'omens', 'oracle'], example: 'Read the omens with your skill script.' },
    { id: 'state', words: ['state', 'variable', 'variables', 'trust'], example: 'Do you trust me more now?' },
    { id: 'fix', words: ['fix'], example: 'How do I fix a reply?' },
    { id: 'director', words: ['director', 'brief', 'pipeline'], example: 'How does the director work?' },
    { id: 'keeper', words: ['keeper', 'keepers', 'memory'], example: 'What do the keepers do?' },
    { id: 'help', words: ['help', 'demo'], example: 'help' },
];

function hasWord(text: string, word: string): boolean {
    const escaped = word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    return new RegExp(`(^|[^\\p{L}\\p{N}])${escaped}($|[^\\p{L}\\p{N}])`, 'iu').test(text);
}

/** The scenario the user's message asks for; 'default' (a plain agent turn) when no word matches. */
export function scenarioFor(message: string): ScenarioId {
    const text = message.slice(0, 2000);
    return SCENARIOS.find((scenario) => scenario.words.some((word) => hasWord(text, word)))?.id ?? 'default';
}
