import type { ModelReply, ModelRequest } from '../../contract/model';
import type { ModelStreamDelta } from '../../contract/model-stream';
import { postChatCompletion, requestModelWithConnection } from './chat-completion-request';
import { storedConnectionProfiles, type RawConnectionProfile } from './connection-profiles';
import { stContext } from '../sillytavern/st-context';
import { importOpenAiModule, importTextGenModule } from '../sillytavern/st-internals';

/** Hears a streamed call's progress (cumulative). */
type OnPartial = (partial: Omit<ModelStreamDelta, 'runId' | 'requestId' | 'round'>) => void;
type Payload = Record<string, unknown>;

function rawProfile(id: string): RawConnectionProfile | undefined {
    return storedConnectionProfiles().find((p) => p && p.id === id);
}

/** SillyTavern's request builders for one API (custom-request.js), as far as the streaming route uses them. */
interface RequestService {
    createRequestData(data: Payload): Payload;
    presetToGeneratePayload(preset: unknown, overridePreset: Payload, overridePayload: Payload): Payload | Promise<Payload>;
}

interface ServiceContext {
    ChatCompletionService?: Partial<RequestService>;
    TextCompletionService?: Partial<RequestService>;
    getPresetManager?(api: string): { getCompletionPresetByName(name: string): unknown } | undefined;
}

const hasBuilders = (service: Partial<RequestService> | undefined): service is RequestService =>
    typeof service?.createRequestData === 'function' && typeof service.presetToGeneratePayload === 'function';

/** The completion preset a profile names (the API's preset manager), or null. */
export function profilePreset(profile: RawConnectionProfile, api: 'openai' | 'textgenerationwebui'): Payload | null {
    if (typeof profile.preset !== 'string' || !profile.preset) return null;
    const preset = (stContext() as unknown as ServiceContext).getPresetManager?.(api)?.getCompletionPresetByName(profile.preset);
    return preset && typeof preset === 'object' ? (preset as Payload) : null;
}

/**
 * Whether a call through this profile streams. A Connection Manager profile has no streaming switch of its
 * own: switching to it applies its completion preset, whose "Streaming" (stream_openai / streaming) then
 * decides; a preset without one, or no preset, leaves the user's current setting. The same here.
 */
export function profileStreams(preset: Payload | null, key: 'stream_openai' | 'streaming', current: unknown): boolean {
    const own = preset?.[key];
    return typeof own === 'boolean' ? own : Boolean(current);
}

/**
 * The request body SillyTavern's ConnectionManagerRequestService would send for a Chat Completion profile
 * (shared.js sendRequest, then ChatCompletionService.processRequest), built with SillyTavern's own builders
 * but sent here, so the stream's raw events reach the accumulators (its generator keeps tool calls to itself).
 * Null when this SillyTavern lacks the builders: the caller does not stream then.
 */
async function chatPayload(profile: RawConnectionProfile, source: string, request: ModelRequest, maxTokens: number, preset: Payload | null): Promise<Payload | null> {
    const service = (stContext() as unknown as ServiceContext).ChatCompletionService;
    if (!hasBuilders(service)) return null;
    const openai = (await importOpenAiModule()) as unknown as { proxies?: Array<{ name: string; url?: string; password?: string }> };
    const proxy = (openai.proxies ?? []).find((p) => p.name === profile.proxy);
    const url = profile['api-url'];
    let data = service.createRequestData({
        stream: true,
        messages: request.messages,
        max_tokens: maxTokens,
        model: profile.model,
        chat_completion_source: source,
        secret_id: profile['secret-id'],
        custom_url: url,
        vertexai_region: url,
        zai_endpoint: url,
        siliconflow_endpoint: url,
        minimax_endpoint: url,
        pollinations_endpoint: url,
        reverse_proxy: proxy?.url,
        proxy_password: proxy?.password,
        custom_prompt_post_processing: profile['prompt-post-processing'],
        tools: request.tools,
        tool_choice: 'auto',
    });
    if (preset) data = await service.presetToGeneratePayload(preset, {}, data);
    return data;
}

/**
 * One agent model call through a Chat Completion Connection Manager profile: streamed when the profile
 * streams (so `onPartial` sees text, reasoning and tool arguments as they arrive, and the signal aborts the
 * stream), else through SillyTavern's ConnectionManagerRequestService in one piece.
 */
export async function requestChatWithConnection(request: ModelRequest, connectionId: string, source: string, signal: AbortSignal, onPartial?: OnPartial): Promise<ModelReply> {
    const profile = rawProfile(connectionId);
    const started = performance.now();
    let data: Payload | null = null;
    try {
        const openai = await importOpenAiModule();
        const preset = profile ? profilePreset(profile, 'openai') : null;
        if (profile && profileStreams(preset, 'stream_openai', openai.oai_settings.stream_openai)) {
            const maxTokens = Number(openai.oai_settings.openai_max_tokens ?? 1024) || 1024;
            data = await chatPayload(profile, source, request, maxTokens, preset);
        }
    } catch {
        data = null; // the profile could not be read as a stream: the one-piece route reports what is wrong
    }
    if (!data) return requestModelWithConnection(request, connectionId, signal);
    data.stream = true;
    return postChatCompletion(data, source, signal, onPartial, started);
}

/**
 * The Text Completion request body ConnectionManagerRequestService would send for a profile (shared.js, then
 * TextCompletionService.processRequest) for an already formatted prompt, streaming; null without the builders
 * or when the profile does not stream.
 */
export async function textStreamPayload(connectionId: string, apiType: string, prompt: string, maxTokens: number, overrides: Payload): Promise<Payload | null> {
    const profile = rawProfile(connectionId);
    const service = (stContext() as unknown as ServiceContext).TextCompletionService;
    if (!profile || !hasBuilders(service)) return null;
    const preset = profilePreset(profile, 'textgenerationwebui');
    const textgen = await importTextGenModule();
    if (!profileStreams(preset, 'streaming', textgen.textgenerationwebui_settings.streaming)) return null;
    let data = service.createRequestData({
        stream: true,
        prompt,
        max_tokens: maxTokens,
        model: profile.model,
        api_type: apiType,
        api_server: profile['api-url'],
        secret_id: profile['secret-id'],
        ...overrides,
    });
    if (preset) data = await service.presetToGeneratePayload(preset, {}, data);
    data.stream = true;
    return data;
}
