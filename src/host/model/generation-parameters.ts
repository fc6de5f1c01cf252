import type { WireMessage } from '../../contract/model';
import { importOpenAiModule, type OpenAiModule } from '../sillytavern/st-internals';

/**
 * Models for which SillyTavern rewrites the messages while it builds the parameters (o1 turns system
 * messages into user ones; DeepSeek's vision model drops images from some roles): built whole per request.
 */
const REWRITES_MESSAGES = /^(openai\/)?o1|deepseek-v4-flash-vision/i;

/** Runs whose parameters are kept: a run and the sub-agents sharing its connection, and a few before it. */
const KEPT = 4;

const built = new Map<string, Promise<Record<string, unknown>>>();

/**
 * SillyTavern's request body for one agent model call (`createGenerationParameters`), built once per run
 * and connection model: each later request of the run copies it and changes only the messages. Settings
 * the user changes mid-run apply from the next run, as a preset switch mid-generation would.
 */
export async function runGenerationParameters(openai: OpenAiModule, runId: string, messages: WireMessage[]): Promise<Record<string, unknown>> {
    const base = baseParameters(openai, runId);
    if (!base) return (await openai.createGenerationParameters(openai.oai_settings, openai.getChatCompletionModel(openai.oai_settings), 'quiet', messages)).generate_data;
    return { ...(await base), messages };
}

/**
 * Builds the run's parameters ahead of its first model request, in a task of its own while the worker
 * stores the run's inputs: SillyTavern's createGenerationParameters is tens of milliseconds of work, which
 * would otherwise run inside the worker's first request (and share its frame with the run's first events).
 */
export function prepareRunGenerationParameters(runId: string, load: () => Promise<OpenAiModule> = importOpenAiModule): void {
    setTimeout(() => {
        void load()
            .then((openai) => baseParameters(openai, runId)?.catch(() => undefined))
            .catch(() => undefined);
    }, 0);
}

/** The run's cached parameters without messages; null for models built whole per request. */
function baseParameters(openai: OpenAiModule, runId: string): Promise<Record<string, unknown>> | null {
    const settings = openai.oai_settings;
    const model = openai.getChatCompletionModel(settings);
    if (REWRITES_MESSAGES.test(model)) return null;
    const key = `${runId}\0${settings.chat_completion_source}\0${model}`;
    let base = built.get(key);
    if (!base) {
        base = openai.createGenerationParameters(settings, model, 'quiet', []).then((result) => result.generate_data);
        built.set(key, base);
        base.catch(() => built.delete(key));
        while (built.size > KEPT) built.delete(built.keys().next().value!);
    }
    return base;
}
