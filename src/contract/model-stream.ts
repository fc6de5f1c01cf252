/**
 * What has arrived so far of a streamed model call (cumulative): shown live in the timeline, never
 * journaled. The complete response is journaled as usual (model-response) once the stream ends.
 */
export interface ModelStreamDelta {
    runId: string;
    requestId: string;
    round: number;
    text: string;
    reasoning: string;
    toolCalls: Array<{ name: string; arguments: string }>;
}
