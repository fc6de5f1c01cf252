import type { ConnectionProfile } from '../../contract/connection-profile';
import { protocolOfMainApi, type ConnectionProtocol } from '../../contract/text-protocol/source';
import { stContext } from '../sillytavern/st-context';

/** How agents on a connection profile's API call tools: by the main API SillyTavern maps it to. */
function protocolOfConnection(api: string): ConnectionProtocol {
    const map = (stContext() as unknown as { CONNECT_API_MAP?: Record<string, { selected?: string }> }).CONNECT_API_MAP;
    return protocolOfMainApi(map?.[api]?.selected ?? '');
}

/** How agents on the user's current connection call tools. */
export function currentConnectionProtocol(): ConnectionProtocol {
    return protocolOfMainApi(stContext().mainApi);
}

/** A Connection Manager profile as SillyTavern stores it: the fields its requests are built from. */
export type RawConnectionProfile = Record<string, unknown> & { id: string };

/** The Connection Manager's profiles as SillyTavern stores them, read fresh (the user may add or delete one at any time). */
export function storedConnectionProfiles(): RawConnectionProfile[] {
    const manager = (stContext().extensionSettings as { connectionManager?: { profiles?: unknown } }).connectionManager;
    return Array.isArray(manager?.profiles) ? (manager.profiles as RawConnectionProfile[]) : [];
}

/** The Connection Manager's profiles, as the agent profiles name them. */
export function connectionProfiles(): ConnectionProfile[] {
    return storedConnectionProfiles()
        .filter((p) => typeof p.id === 'string')
        .map((p) => ({ id: String(p.id), name: String(p.name ?? p.id), api: String(p.api ?? ''), model: String(p.model ?? ''), protocol: protocolOfConnection(String(p.api ?? '')) }));
}

export function findConnectionProfile(id: string): ConnectionProfile | undefined {
    return connectionProfiles().find((profile) => profile.id === id);
}

/** The chat completion source a Connection Manager profile talks to, so responses decode by provider. */
export function sourceOfConnection(profile: ConnectionProfile): string {
    const map = (stContext() as unknown as { CONNECT_API_MAP?: Record<string, { source?: string }> }).CONNECT_API_MAP;
    return map?.[profile.api]?.source ?? profile.api;
}
