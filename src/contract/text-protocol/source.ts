/**
 * The run "source" of Text Completion connections (SillyTavern's main_api name): responses from it decode
 * with the text tool protocol (SPEC §9) instead of a chat completion provider's shape.
 */
export const TEXT_COMPLETION_SOURCE = 'textgenerationwebui';

/** Which protocol a connection's agent runs use; 'none' for APIs Agent Mode cannot drive (Kobold Horde, NovelAI). */
export type ConnectionProtocol = 'tool-calls' | 'text' | 'none';

/** The protocol for SillyTavern's main API name ('openai' is every Chat Completion source). */
export function protocolOfMainApi(mainApi: string): ConnectionProtocol {
    if (mainApi === 'openai') return 'tool-calls';
    if (mainApi === TEXT_COMPLETION_SOURCE) return 'text';
    return 'none';
}
