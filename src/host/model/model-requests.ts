import type { ModelReply, ModelRequest } from '../../contract/model';
import { createConversationStore } from './conversation-store';
import type { Profile } from '../../contract/profile';
import { routeModel, type ModelRoute, type ModelStreamPartial } from './model-route';
import type { ModelStreamDelta } from '../../contract/model-stream';
import { HostError } from '../host-error';
import { importOpenAiModule } from '../sillytavern/st-internals';

/**
 * The model side of one run's host bridge: each request goes to the model of the agent that makes it (a
 * sub-agent may use another connection than the root agent), and each can be aborted on its own while
 * the run's Stop aborts them all.
 */
export function createModelRequests(rootRoute: ModelRoute, runSignal: AbortSignal, onDelta?: (delta: ModelStreamDelta) => void) {
    const inFlight = new Map<string, AbortController>();
    const conversations = createConversationStore();
    return {
        async requestModel(delta: ModelRequest): Promise<ModelReply> {
            const request = conversations.resolveRequest(delta);
            if (request === null) return { ok: false, status: null, message: 'The page no longer holds this conversation.', aborted: false, conversationMissing: true };
            let route = rootRoute;
            if (request.model) {
                try {
                    route = routeModel({ model: request.model as Profile['model'], displayName: request.agentName ?? 'sub-agent' });
                } catch (error) {
                    const message = error instanceof HostError ? error.message : String(error);
                    return { ok: false, status: null, message, aborted: false };
                }
            }
            const controller = new AbortController();
            const onRunAbort = () => controller.abort(runSignal.reason);
            if (runSignal.aborted) onRunAbort();
            else runSignal.addEventListener('abort', onRunAbort, { once: true });
            inFlight.set(request.requestId, controller);
            try {
                const onPartial = onDelta
                    ? (partial: ModelStreamPartial) => onDelta({ runId: request.runId, requestId: request.requestId, round: request.round, ...partial })
                    : undefined;
                const reply = await route.send(request, controller.signal, onPartial);
                if (!reply.ok) return reply;
                if (route === rootRoute) return { ...reply, keepsConversation: true };
                // A sub-agent's response decodes by its own connection's source, not the run's.
                const source = route.source ?? String((await importOpenAiModule()).oai_settings.chat_completion_source);
                return { ...reply, source, keepsConversation: true };
            } finally {
                inFlight.delete(request.requestId);
                runSignal.removeEventListener('abort', onRunAbort);
            }
        },
        abortModelRequest(requestId: string): void {
            inFlight.get(requestId)?.abort('Cancelled by the engine.');
        },
    };
}
