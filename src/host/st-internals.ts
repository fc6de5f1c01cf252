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
