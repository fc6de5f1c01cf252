import { importStModule } from './st-module';

/**
 * The part of SillyTavern's context API (public/scripts/st-context.js) that Tavern Agent uses. Every member
 * here is the same in 1.18.0 and 1.19 (1.19 only adds messageFormatter, which we do not use); a member a
 * later version drops must be checked for where it is used, not assumed from a version number.
 * getContext() builds a fresh object on every call and replaces chatMetadata on chat switch, so callers
 * must call it again each time instead of keeping the result.
 */
export interface ChatMessage {
    name: string;
    mes: string;
    is_user: boolean;
    is_system: boolean;
    send_date?: string;
    swipe_id?: number;
    swipes?: string[];
    extra?: Record<string, unknown>;
}

export interface SlashCommandProps {
    name: string;
    callback: (named: Record<string, unknown>, unnamed: unknown) => string | Promise<string>;
    returns?: string;
    helpString?: string;
    unnamedArgumentList?: unknown[];
    namedArgumentList?: unknown[];
}

export interface EventSource {
    on(event: string, listener: (...args: any[]) => unknown): void; // ST passes event-specific arguments
    removeListener(event: string, listener: (...args: any[]) => unknown): void; // same as above
    /** Awaits every listener in turn (ST's own replies await it the same way). */
    emit(event: string, ...args: unknown[]): Promise<void>;
}

export interface StContext {
    chat: ChatMessage[];
    chatId: string | undefined;
    characterId: number | string | undefined;
    groupId: string | null | undefined;
    name1: string;
    name2: string;
    /** SillyTavern's characters; `characterId` is an index into it. */
    characters: Array<{ avatar: string; name?: string }>;
    chatMetadata: Record<string, unknown>;
    onlineStatus: string;
    openCharacterChat(fileName: string): Promise<void>;
    eventSource: EventSource;
    eventTypes: Record<string, string>;
    getCurrentChatId(): string | undefined;
    mainApi: string;
    /** SillyTavern's token count of a text, by the tokenizer of the current connection. */
    getTokenCountAsync?: (text: string, padding?: number) => Promise<number>;
    /** The Text Completion context size (Chat Completion keeps its own in oai_settings.openai_max_context). */
    maxContext?: number;
    extensionSettings: Record<string, unknown>;
    saveSettingsDebounced(): void;
    ConnectionManagerRequestService: {
        sendRequest(
            profileId: string,
            prompt: unknown[],
            maxTokens: number,
            custom: { stream?: boolean; signal?: AbortSignal; extractData?: boolean; includePreset?: boolean },
            overridePayload?: Record<string, unknown>,
        ): Promise<unknown>;
    };
    generate(type: string, options: { signal?: AbortSignal }, dryRun: boolean): Promise<unknown>;
    saveReply(options: { type: string; getMessage: string; reasoning?: string }): Promise<unknown>;
    /** ST's power_user settings object (live): clean-up switches such as trim_spaces, and the instruct template. */
    powerUserSettings: { instruct?: Record<string, unknown> & { enabled?: boolean; preset?: string } } & Record<string, unknown>;
    saveChat(): Promise<void>;
    /** Prompts extensions inject into the next generations, by key (ST's `extension_prompts`; replaced on chat switch). */
    extensionPrompts: Record<string, unknown>;
    /** `position`, `role`: numbers of ST's `extension_prompt_types` and `extension_prompt_roles` (script.js). */
    setExtensionPrompt(key: string, value: string, position: number, depth: number, scan?: boolean, role?: number): void;
    updateMessageBlock(messageId: number, message: ChatMessage): void;
    stopGeneration(): boolean;
    /** ST's generating state: the Stop button shown, swipes hidden, `body[data-generating]` set (and cleared). */
    deactivateSendButtons?(): void;
    activateSendButtons?(): void;
    uuidv4(): string;
    saveMetadata(): Promise<void>;
    executeSlashCommandsWithOptions(text: string, options?: Record<string, unknown>): Promise<{ pipe?: unknown } | undefined>;
    getRequestHeaders(): Record<string, string>;
    t(strings: TemplateStringsArray, ...values: unknown[]): string;
    translate(text: string, key?: string | null): string;
    getCurrentLocale(): string;
    SlashCommandParser: { addCommandObject(command: unknown): void };
    SlashCommand: { fromProps(props: SlashCommandProps): unknown };
    SlashCommandArgument: { fromProps(props: Record<string, unknown>): unknown };
    SlashCommandEnumValue: new (value: string, description?: string) => unknown;
    ARGUMENT_TYPE: Record<string, string>;
    /** Text Completion (the text tool protocol's route). */
    TextCompletionService: {
        constructPrompt(prompt: Array<{ role: string; content: string; name?: string }>, instructPreset: unknown, instructSettings?: unknown): string | undefined;
    };
}

/** The toastr options Tavern Agent passes. */
export interface ToastOptions {
    timeOut?: number;
    extendedTimeOut?: number;
    onclick?: () => void;
    /** Message and title as text: toastr inserts both as HTML unless told (SillyTavern's page default says so, today). */
    escapeHtml?: boolean;
}

declare global {
    // eslint-disable-next-line no-var
    var SillyTavern: { getContext(): StContext } | undefined;
    // eslint-disable-next-line no-var
    var toastr:
        | {
              info(m: string, t?: string, options?: ToastOptions): void;
              warning(m: string, t?: string, options?: ToastOptions): void;
              error(m: string, t?: string, options?: ToastOptions): void;
              success(m: string, t?: string, options?: ToastOptions): void;
          }
        | undefined;
}

export function stContext(): StContext {
    const st = globalThis.SillyTavern;
    if (!st) throw new Error('Tavern Agent must run inside SillyTavern (SillyTavern.getContext is missing).');
    return st.getContext();
}

/** ST's internals that are not on the context; imported at run time from the page, never bundled. */
export async function currentUserHandle(): Promise<string> {
    try {
        const userModule = await importStModule<{ getCurrentUserHandle?: () => string }>(ST_USER_MODULE);
        return userModule.getCurrentUserHandle?.() ?? 'default-user';
    } catch {
        return 'default-user';
    }
}

const ST_USER_MODULE = '/scripts/user.js';
