import { importRegexEngine, importScriptModule } from '../sillytavern/st-internals';
import { stContext } from '../sillytavern/st-context';

/** What SillyTavern does to the text of a generated reply before it saves it, as one object per commit. */
export interface ReplyPipeline {
    /** Stop strings, regex scripts placed on AI output, collapse-newlines, wrong-name and instruct trims. */
    cleanUp(text: string): string;
    /** Regex scripts placed on reasoning, then trim-spaces, as ST treats a reply's reasoning. */
    reasoning(text: string): string;
    /** The user's "trim spaces" switch (saveReply applies it to new messages only; edits go through here). */
    trim(text: string): string;
}

/**
 * Loads ST's own functions from the page's live modules (never bundled): the user's regex scripts and
 * settings are read by them at call time. Where a module cannot be loaded the text passes unchanged, so a
 * commit is never lost to a missing internal.
 */
export async function loadReplyPipeline(): Promise<ReplyPipeline> {
    const [script, regex] = await Promise.all([importScriptModule().catch(() => null), importRegexEngine().catch(() => null)]);
    const trimSpaces = () => Boolean(stContext().powerUserSettings?.trim_spaces);
    return {
        cleanUp(text) {
            if (!script?.cleanUpMessage) return text;
            // The agent wrote the whole reply: no prompt bias to put back in front, and no continuation.
            // Older SillyTavern took positional arguments (a declared arity); the current one an options object.
            if (script.cleanUpMessage.length > 0) return positional(script.cleanUpMessage)(text, false, false, false, null, false);
            return script.cleanUpMessage({ getMessage: text, isImpersonate: false, isContinue: false, displayIncompleteSentences: false, includeUserPromptBias: false });
        },
        reasoning(text) {
            const placement = regex?.regex_placement.REASONING;
            const regexed = regex && placement !== undefined ? regex.getRegexedString(text, placement) : text;
            return trimSpaces() ? regexed.trim() : regexed;
        },
        trim(text) {
            return trimSpaces() ? text.trim() : text;
        },
    };
}

type PositionalCleanUp = (text: string, isImpersonate: boolean, isContinue: boolean, displayIncomplete: boolean, stoppingStrings: null, includeBias: boolean) => string;

/** The same function seen through its older, positional signature. */
function positional(fn: unknown): PositionalCleanUp {
    return fn as PositionalCleanUp;
}
