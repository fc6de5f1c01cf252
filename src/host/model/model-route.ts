import type { ModelReply, ModelRequest } from '../../contract/model';
import type { Profile } from '../../contract/profile';
import { TEXT_COMPLETION_SOURCE } from '../../contract/text-protocol/source';
import { findConnectionProfile, sourceOfConnection } from './connection-profiles';
import { t } from '../../i18n/t';
import { requestModel } from './chat-completion-request';
import { requestChatWithConnection } from './connection-stream';
import { HostError } from '../host-error';
import { stContext } from '../sillytavern/st-context';
import { connectionApiOf, rawConnectionProfile } from './text-completion/text-connection';
import { requestTextModel, requestTextModelWithConnection } from './text-completion/text-request';
import type { ModelStreamDelta } from '../../contract/model-stream';

export type ModelStreamPartial = Omit<ModelStreamDelta, 'runId' | 'requestId' | 'round'>;

export interface ModelRoute {
    /** `onPartial` hears a streamed call's progress (when the connection, or the connection profile, streams). */
    send(request: ModelRequest, signal: AbortSignal, onPartial?: (partial: ModelStreamPartial) => void): Promise<ModelReply>;
    /** The chat completion source responses come from, when it is not the current connection's. */
    source: string | null;
}

/**
 * Where a profile's model calls go: the current connection, or its Connection Manager profile. A profile
 * whose connection profile was deleted fails here, naming it; it never falls back to another model.
 * Text Completion connections go through the text tool protocol (SPEC §9); their responses decode by it.
 */
export function routeModel(profile: Pick<Profile, 'model' | 'displayName'>): ModelRoute {
    if (profile.model.mode === 'connection-profile') {
        const connection = findConnectionProfile(profile.model.profileId);
        if (!connection) {
            throw new HostError(
                'profile.connection_missing',
                `${t`The connection profile this agent profile uses no longer exists. Choose another model for the profile.`} (${t`agent profile`} "${profile.displayName}", ${t`connection profile`} "${profile.model.profileName}")`,
            );
        }
        const api = connectionApiOf(connection.api);
        if (api.selected === TEXT_COMPLETION_SOURCE) {
            const raw = rawConnectionProfile(connection.id);
            const textConnection = { id: connection.id, api: connection.api, ...(raw ?? {}) };
            return { send: (request, signal, onPartial) => requestTextModelWithConnection(request, textConnection, api.type ?? '', signal, onPartial), source: TEXT_COMPLETION_SOURCE };
        }
        const source = sourceOfConnection(connection);
        return { send: (request, signal, onPartial) => requestChatWithConnection(request, connection.id, source, signal, onPartial), source };
    }
    const mainApi = stContext().mainApi;
    if (mainApi === TEXT_COMPLETION_SOURCE) return { send: (request, signal, onPartial) => requestTextModel(request, signal, onPartial), source: TEXT_COMPLETION_SOURCE };
    if (mainApi !== 'openai') {
        throw new HostError('host.needs_chat_completion', t`Agent Mode needs a Chat Completion or Text Completion connection. Switch the API, or turn Agent Mode off.`);
    }
    return { send: (request, signal, onPartial) => requestModel(request, signal, onPartial), source: null };
}
