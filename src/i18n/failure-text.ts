import { t } from './t';

/**
 * Run outcomes, in the reader's language. The engine journals its sentences in English (the stored
 * language: exports and the model read them too); the page says the ones a user meets in every run in
 * their own words, and any other sentence as stored.
 */
export function storedSentence(text: string): string {
    switch (text) {
        case 'The run was stopped.':
            return t`The run was stopped.`;
        case 'The task was cancelled.':
            return t`The task was cancelled.`;
        case 'The page was reloaded or closed while this run was working.':
            return t`The page was reloaded or closed while this run was working.`;
        case 'Stopped by the user.':
            return t`Stopped by the user.`;
        case 'Stopped with /agent stop.':
            return t`Stopped with /agent stop.`;
        case 'Stopped from the panel.':
            return t`Stopped from the panel.`;
        case 'Stopped through the API.':
            return t`Stopped through the API.`;
        case 'Cancelled through the API.':
            return t`Cancelled through the API.`;
        case 'The run was stopped; nothing more is written to the chat.':
            return t`The run was stopped; nothing more is written to the chat.`;
        case 'Another tab took this run over while this tab was asleep; this tab stopped it and wrote nothing more.':
            return t`Another tab took this run over while this tab was asleep; this tab stopped it and wrote nothing more.`;
        default:
            return text;
    }
}

/** What a failed run tells its user: what happened, and for the failures a user can fix, what to do. */
export function failureText(error: { code: string; message: string }): string {
    if (error.code === 'model.tool_call_required') {
        // Said for any model: the engine's text names the file; the advice is the user's three ways out.
        return [
            t`The model answered in plain text instead of calling tools; its text is kept in output/direct_output.md.`,
            t`Choose a model or profile that can call tools, or let the agent only plan and SillyTavern write the reply (/agent pipeline before=director reply=sillytavern), or switch Agent Mode off for this chat.`,
        ].join(' ');
    }
    if (error.code === 'profile.not_found') {
        // The engine's sentence names the profile in quotes (engine/agents/profiles.ts); the name is kept, outside the key.
        const id = /"([^"]*)"/.exec(error.message)?.[1];
        return `${t`This agent profile does not exist. Pick another profile in the Tavern Agent panel or with /agent profile.`}${id === undefined ? '' : ` (${id})`}`;
    }
    return storedSentence(error.message);
}
