import { TOOL_CALL_CLOSE, TOOL_CALL_OPEN } from '../../../contract/text-protocol/index';
import type { ModelStreamDelta } from '../../../contract/model-stream';

/**
 * What a streamed Text Completion turn shows while it arrives: the narration outside the `<tool_call>`
 * blocks, a leading `<think>` block as reasoning, and each call's name and arguments as far as they came.
 * For the live view only: the complete text is decoded by the protocol's strict reader (SPEC §9).
 */
export function textPartial(output: string): Omit<ModelStreamDelta, 'runId' | 'requestId' | 'round'> {
    let rest = output;
    let reasoning = '';
    const think = /^\s*<think>([\s\S]*?)(<\/think>|$)/.exec(rest);
    if (think) {
        reasoning = think[1]!.trim();
        rest = rest.slice(think[0].length);
    }
    const [narration = '', ...blocks] = rest.split(TOOL_CALL_OPEN);
    const toolCalls = blocks.map((block) => {
        const body = block.split(TOOL_CALL_CLOSE)[0] ?? '';
        const name = /"name"\s*:\s*"((?:[^"\\]|\\.)*)"/.exec(body)?.[1] ?? '';
        const args = /"arguments"\s*:\s*([\s\S]*)$/.exec(body)?.[1] ?? '';
        // The call's own closing brace follows the arguments: drop it once the block is whole.
        return { name, arguments: block.includes(TOOL_CALL_CLOSE) ? args.trim().replace(/\}\s*$/, '') : args };
    });
    const text = [narration, ...blocks.map((block) => block.split(TOOL_CALL_CLOSE)[1] ?? '')].join('').trim();
    return { text, reasoning, toolCalls };
}
