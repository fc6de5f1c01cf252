import { fail, ok, type Result } from '../../contract/result';
import { MESSAGE_MARKER_KEY, type ChatFileRequest, type ChatMarkers } from '../../contract/chat-markers';
import { MEMORY_SEED_KEY } from '../../contract/memory-seed';

/**
 * Reads another chat of the open character or group from SillyTavern (issue 37 §2, *Bring memory from…*) and
 * keeps only what memory needs: each message's marker and the chat's memory seed. Here in the worker, so parsing a
 * long chat never holds the page up; bounded in bytes while it streams (`memory.chat_too_large`, nothing kept).
 * SillyTavern answers an empty list for a chat file that is not there (`memory.chat_not_found`).
 */
export async function readChatMarkers(request: ChatFileRequest, maxBytes: number, fetcher: typeof fetch = fetch): Promise<Result<ChatMarkers>> {
    const controller = new AbortController();
    let response: Response;
    try {
        response = await fetcher(request.url, { method: 'POST', headers: request.headers, body: JSON.stringify(request.body), cache: 'no-cache', signal: controller.signal });
    } catch (error) {
        return fail('memory.chat_not_found', 'SillyTavern could not be asked for that chat.', error instanceof Error ? error.message : String(error));
    }
    if (!response.ok) return fail('memory.chat_not_found', `SillyTavern answered ${response.status} for that chat.`);
    let read: { text: string; bytes: number } | null;
    try {
        read = await readBounded(response, maxBytes, controller);
    } catch (error) {
        return fail('memory.chat_not_found', 'The chat could not be read from SillyTavern.', error instanceof Error ? error.message : String(error));
    }
    if (read === null) return fail('memory.chat_too_large', `That chat is over ${maxBytes} bytes: it was not read for memory.`);
    let parsed: unknown;
    try {
        parsed = JSON.parse(read.text);
    } catch {
        return fail('memory.chat_not_found', 'SillyTavern did not answer with a chat.');
    }
    // The first line of a chat file is its header (chat_metadata); no line at all means there is no such file.
    if (!Array.isArray(parsed) || parsed.length === 0) return fail('memory.chat_not_found', 'There is no such chat.');
    const [header, ...lines]: unknown[] = parsed;
    return ok({
        messages: lines.map((line) => {
            const marker = objectOf(objectOf(line)?.extra)?.[MESSAGE_MARKER_KEY];
            return marker === undefined ? {} : { extra: { [MESSAGE_MARKER_KEY]: marker } };
        }),
        seed: objectOf(objectOf(header)?.chat_metadata)?.[MEMORY_SEED_KEY] ?? null,
        bytes: read.bytes,
    });
}

function objectOf(value: unknown): Record<string, unknown> | null {
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

/** The body as text and its size, or null as soon as it passes `maxBytes` (the download is then stopped). */
async function readBounded(response: Response, maxBytes: number, controller: AbortController): Promise<{ text: string; bytes: number } | null> {
    if (!response.body) {
        const text = await response.text();
        const bytes = new TextEncoder().encode(text).length;
        return bytes > maxBytes ? null : { text, bytes };
    }
    const reader = response.body.getReader();
    const chunks: Uint8Array[] = [];
    let total = 0;
    for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        total += value.byteLength;
        if (total > maxBytes) {
            controller.abort();
            return null;
        }
        chunks.push(value);
    }
    const bytes = new Uint8Array(total);
    let offset = 0;
    for (const chunk of chunks) {
        bytes.set(chunk, offset);
        offset += chunk.byteLength;
    }
    return { text: new TextDecoder().decode(bytes), bytes: total };
}
