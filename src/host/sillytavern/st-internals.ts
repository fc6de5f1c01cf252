import { importStModule } from './st-module';

/**
 * SillyTavern internals that the context API does not offer, imported from the page at run time (never
 * bundled: build.mjs marks /scripts/* external). Each is typed with just what we use.
 */
export interface OpenAiModule {
    oai_settings: Record<string, unknown> & { chat_completion_source: string };
    getChatCompletionModel(settings?: unknown): string;
    createGenerationParameters(
        settings: unknown,
        model: string,
        type: string,
        messages: unknown[],
    ): Promise<{ generate_data: Record<string, unknown> }>;
}

const OPENAI_MODULE = '/scripts/openai.js';

export function importOpenAiModule(): Promise<OpenAiModule> {
    return importStModule<OpenAiModule>(OPENAI_MODULE);
}

/** script.js: the clean-up SillyTavern gives every generated reply (stop strings, AI-output regexes, trims), and its settings save. */
export interface ScriptModule {
    cleanUpMessage(options: {
        getMessage: string;
        isImpersonate: boolean;
        isContinue: boolean;
        displayIncompleteSentences?: boolean;
        includeUserPromptBias?: boolean;
    }): string;
    /** The response length the user set (live binding), read by the text route. */
    amount_gen: number;
    /** Saves SillyTavern's settings at once (not debounced); a failed request shows a toast, never rejects. */
    saveSettings(): Promise<void>;
}

/** The regex extension's engine: the scripts the user placed on AI output and reasoning. */
export interface RegexEngineModule {
    getRegexedString(text: string, placement: number): string;
    regex_placement: { AI_OUTPUT: number; REASONING?: number };
}

// The same URLs SillyTavern loads them from, so the import returns its live module instances.
const SCRIPT_MODULE = '/script.js';
const REGEX_ENGINE_MODULE = '/scripts/extensions/regex/engine.js';
/** SillyTavern's Text Completion settings module (textgen-settings.js), for the text tool protocol's route. */
export interface TextGenModule {
    textgenerationwebui_settings: Record<string, unknown> & { type: string; streaming?: boolean };
    getTextGenGenerationData(
        finalPrompt: string,
        maxTokens: number,
        isImpersonate: boolean,
        isContinue: boolean,
        cfgValues: unknown,
        type: string,
    ): Promise<Record<string, unknown>>;
}

export interface InstructModule {
    getInstructStoppingSequences(options?: { customInstruct?: unknown; useStopStrings?: boolean | null }): string[];
}

const TEXTGEN_MODULE = '/scripts/textgen-settings.js';
const INSTRUCT_MODULE = '/scripts/instruct-mode.js';

export function importTextGenModule(): Promise<TextGenModule> {
    return importStModule<TextGenModule>(TEXTGEN_MODULE);
}

export function importInstructModule(): Promise<InstructModule> {
    return importStModule<InstructModule>(INSTRUCT_MODULE);
}

export function importScriptModule(): Promise<ScriptModule> {
    return importStModule<ScriptModule>(SCRIPT_MODULE);
}

export function importRegexEngine(): Promise<RegexEngineModule> {
    return importStModule<RegexEngineModule>(REGEX_ENGINE_MODULE);
}
