/**
 * Reads a streamed Text Completion response (SSE, as SillyTavern's backend forwards it) into one body of
 * the non-streaming shape, so the worker decodes both the same way: the text of every chunk
 * (`choices[0].text` or llama.cpp's `content`), the last finish reason, and the token counts of the final
 * chunk where the backend sends them. An abort rejects the read at once. `onText` hears the text so far.
 */
export async function readTextStream(response: Response, onText?: (text: string) => void): Promise<Record<string, unknown>> {
    const reader = response.body?.getReader();
    if (!reader) return { choices: [{ index: 0, text: '', finish_reason: null }] };
    const decoder = new TextDecoder();
    let buffer = '';
    let text = '';
    let finishReason: string | null = null;
    let usage: Record<string, unknown> | null = null;
    const take = (data: string) => {
        if (data === '[DONE]') return;
        let chunk: Record<string, any>; // one SSE event's JSON, read field by field below
        try {
            chunk = JSON.parse(data);
        } catch {
            return;
        }
        if (chunk.error) throw new Error(typeof chunk.error === 'string' ? chunk.error : String(chunk.error?.message ?? 'The backend reported an error while streaming.'));
        const choice = Array.isArray(chunk.choices) ? chunk.choices[0] : undefined;
        if (choice && typeof choice.index === 'number' && choice.index > 0) return; // other swipes
        text += typeof choice?.text === 'string' ? choice.text : typeof chunk.content === 'string' ? chunk.content : '';
        if (typeof choice?.finish_reason === 'string') finishReason = choice.finish_reason;
        if (chunk.stopped_limit === true) finishReason = 'length';
        else if (chunk.stop === true && finishReason === null) finishReason = 'stop';
        if (chunk.usage && typeof chunk.usage === 'object') usage = chunk.usage;
        else if (typeof chunk.tokens_predicted === 'number' && typeof chunk.tokens_evaluated === 'number') {
            usage = { prompt_tokens: chunk.tokens_evaluated, completion_tokens: chunk.tokens_predicted };
        }
    };
    for (;;) {
        const { done, value } = await reader.read();
        if (value) buffer += decoder.decode(value, { stream: true });
        const events = buffer.split(/\r?\n\r?\n/);
        buffer = done ? '' : (events.pop() ?? '');
        for (const event of events) {
            const data = event
                .split(/\r?\n/)
                .filter((line) => line.startsWith('data:'))
                .map((line) => line.slice(5).trimStart())
                .join('\n');
            if (data) take(data);
        }
        // What has arrived so far, once per read (the live view; never journaled).
        if (onText && events.length > 0) onText(text);
        if (done) break;
    }
    return { choices: [{ index: 0, text, finish_reason: finishReason }], ...(usage ? { usage } : {}), streamed: true };
}
