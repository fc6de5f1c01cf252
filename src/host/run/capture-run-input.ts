import type { GenerationType, PrefixMessage, RunRequest } from '../../contract/run-input';
import type { Profile } from '../../contract/profile';
import { t } from '../../i18n/t';
import { HostError } from '../host-error';
import { currentIdentity } from '../sillytavern/chat-identity';
import { markedMemory, markedMemoryRunId } from '../sillytavern/message-marker';
import { stContext, type ChatMessage } from '../sillytavern/st-context';
import { importOpenAiModule } from '../sillytavern/st-internals';
import { createWorldInfoCapture } from '../lore/world-info-capture';
import type { LoadedLore } from '../lore/lore-capture';
import { captureRunLore } from '../lore/run-lore';
import { runSkillSet } from '../skills/run-skills';
import { createTextPromptCapture } from '../model/text-completion/text-prompt-capture';
import { captureState } from '../state/capture-state';
import { readMemorySeed } from '../../contract/memory-seed';

interface PromptMessage {
    role?: string;
    content?: unknown;
    name?: string;
}

function textOf(content: unknown): string {
    if (typeof content === 'string') return content;
    if (Array.isArray(content)) {
        return content
            .map((part) => (part && typeof part === 'object' && 'text' in part ? String((part as { text: unknown }).text) : ''))
            .filter(Boolean)
            .join('\n');
    }
    return '';
}

/**
 * One dry run at a time on the page: each capture listens to the events a dry run emits, so a keeper's
 * capture in the background (issue 34) must not overlap the capture of the user's next turn.
 */
let capturing: Promise<unknown> = Promise.resolve();

function oneAtATime<T>(work: () => Promise<T>): Promise<T> {
    const next = capturing.then(work, work);
    capturing = next.catch(() => undefined);
    return next;
}

/**
 * The connection's context size as SillyTavern reports it (issue 38 §3, compaction): the Chat Completion
 * context slider, or the Text Completion one. Absent when neither is a positive number.
 */
function contextSizeOf(mainApi: string, settings: Record<string, unknown>, maxContext: unknown): { contextSize?: number } {
    const size = Math.floor(Number(mainApi === 'openai' ? settings.openai_max_context : maxContext));
    return Number.isFinite(size) && size > 0 ? { contextSize: size } : {};
}

/** The messages a run may read, as its prefix: each one's text, speaker, and the memory it carries. */
function chatPrefix(visible: readonly ChatMessage[]): PrefixMessage[] {
    return visible.map((message, index) => {
        const memory = markedMemory(message);
        return {
            index,
            role: message.is_user ? 'user' : message.is_system ? 'system' : 'assistant',
            name: message.name ?? '',
            text: message.mes ?? '',
            hidden: Boolean(message.is_system),
            // The memory's owner: the run that wrote the reply, or a keeper that left its memory in it.
            agentRunId: markedMemoryRunId(message),
            ...(memory ? { memory } : {}),
        };
    });
}

/**
 * A capture taken again for another run without another dry run: the same prompt, lore, skills and state, with
 * this run's id and the open chat's messages up to `upTo` as its prefix. For the chunks of a memory build
 * (issue 37 §3), whose prompt is only what comes before the history: a dry run per chunk would assemble the
 * whole chat's prompt again each time (its long tasks on the page grow with the chat), to keep only that part.
 */
export function recapture(input: RunRequest, runId: string, upTo: number): RunRequest {
    return { ...input, runId, chat: currentIdentity(), prefix: chatPrefix(stContext().chat.slice(0, upTo + 1)) };
}

/**
 * Freezes what a run may see (SPEC §1), from inside the generate interceptor: the chat prefix, and a dry
 * run of SillyTavern's own prompt assembly for this turn, whose prompt becomes the run's starting context
 * and whose world-info scan is the turn's activation. The dry run gets its own AbortSignal, so it does not
 * replace SillyTavern's generation controller and the Stop button keeps working.
 */
export async function captureRunInput(
    runId: string,
    type: GenerationType,
    source: string | null,
    signal: AbortSignal,
    /** The run's profile: which skills it may see (its id for the profile scope, its visible/deny). */
    profile: Pick<Profile, 'id' | 'skills'>,
    /** A keeper after a reply (issue 34): the prefix ends with that reply, at this index, whatever came after it. */
    upTo?: number,
): Promise<RunRequest> {
    const context = stContext();
    const identity = currentIdentity();
    // A swipe regenerates the last message: it is the run's target, not part of what it may read.
    const visible = upTo !== undefined ? context.chat.slice(0, upTo + 1) : type === 'swipe' ? context.chat.slice(0, -1) : context.chat.slice();
    const prefix = chatPrefix(visible);

    let prompt: PromptMessage[] | null = null;
    const worldInfo = createWorldInfoCapture();
    const onPrompt = (data: { chat: PromptMessage[]; dryRun: boolean }) => {
        if (data.dryRun) prompt = structuredClone(data.chat);
    };
    // The books this turn's scan loaded: every enabled entry of them is searchable by the lore tools.
    let loadedLore: LoadedLore | null = null;
    const onLoaded = (lore: Record<string, unknown>) => {
        worldInfo.onEntriesLoaded(lore);
        loadedLore = lore as LoadedLore;
    };
    const onScan = (args: { activated?: { entries?: unknown } }) => worldInfo.onScanDone(args);
    const textPrompt = createTextPromptCapture();
    const onCombine = (data: { storyString?: unknown }) => textPrompt.onBeforeCombine(data);
    const { eventSource, eventTypes } = context;
    await oneAtATime(async () => {
        eventSource.on(eventTypes.GENERATE_BEFORE_COMBINE_PROMPTS!, onCombine);
        eventSource.on(eventTypes.CHAT_COMPLETION_PROMPT_READY!, onPrompt);
        eventSource.on(eventTypes.WORLDINFO_ENTRIES_LOADED!, onLoaded);
        eventSource.on(eventTypes.WORLDINFO_SCAN_DONE!, onScan);
        try {
            await context.generate(type, { signal }, true);
        } finally {
            eventSource.removeListener(eventTypes.CHAT_COMPLETION_PROMPT_READY!, onPrompt);
            eventSource.removeListener(eventTypes.WORLDINFO_ENTRIES_LOADED!, onLoaded);
            eventSource.removeListener(eventTypes.WORLDINFO_SCAN_DONE!, onScan);
            eventSource.removeListener(eventTypes.GENERATE_BEFORE_COMBINE_PROMPTS!, onCombine);
        }
    });
    // The skill set is frozen with the rest; every bundle it names is in the worker's cache from here on.
    const skills = await runSkillSet(profile);
    if (signal.aborted) throw new HostError('run.cancelled', 'The run was stopped.');
    // Text Completion: no chat-format prompt is assembled; its parts are (model/text-completion/text-prompt-capture.ts).
    const assembled = (prompt as PromptMessage[] | null) ?? textPrompt.result(prefix);
    if (!assembled) {
        throw new HostError('host.prompt_unavailable', t`SillyTavern did not assemble a prompt for this turn (is a character or group chat open?).`);
    }
    const openai = await importOpenAiModule();
    const activation = worldInfo.result();
    const lore = await captureRunLore(loadedLore, activation.entries);
    // The state as it stood before the reply: on the shown swipes of the messages the run may read.
    const state = captureState(visible, loadedLore);
    const memorySeed = readMemorySeed(context.chatMetadata);
    return {
        runId,
        generationType: type,
        chat: identity,
        prefix,
        prompt: assembled
            .filter((m) => m && typeof m === 'object' && ['system', 'user', 'assistant'].includes(String(m.role)))
            .map((m) => ({ role: m.role as 'system' | 'user' | 'assistant', content: textOf(m.content), ...(m.name ? { name: String(m.name) } : {}) })),
        // No entry matched, or no book has entries: a valid, empty activation. No scan seen: not captured.
        worldInfo: activation,
        ...(lore ? { lore } : {}),
        skills: skills.skills,
        hiddenSkills: skills.hiddenSkills,
        skillPool: skills.skillPool,
        source: source ?? openai.oai_settings.chat_completion_source,
        retry: { maxRetries: 3, baseDelayMs: 500 },
        state,
        ...(memorySeed ? { memorySeed } : {}),
        ...contextSizeOf(context.mainApi, openai.oai_settings, context.maxContext),
    };
}
