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
    return import(/* webpackIgnore: true */ OPENAI_MODULE) as Promise<OpenAiModule>;
}

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

/** What /script.js exports that the text route reads: the response length the user set (live binding). */
export interface ScriptModule {
    amount_gen: number;
}

const TEXTGEN_MODULE = '/scripts/textgen-settings.js';
const INSTRUCT_MODULE = '/scripts/instruct-mode.js';
const SCRIPT_MODULE = '/script.js';

export function importTextGenModule(): Promise<TextGenModule> {
    return import(/* webpackIgnore: true */ TEXTGEN_MODULE) as Promise<TextGenModule>;
}

export function importInstructModule(): Promise<InstructModule> {
    return import(/* webpackIgnore: true */ INSTRUCT_MODULE) as Promise<InstructModule>;
}

export function importScriptModule(): Promise<ScriptModule> {
    return import(/* webpackIgnore: true */ SCRIPT_MODULE) as Promise<ScriptModule>;
}
