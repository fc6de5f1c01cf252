import type { ConnectionProfile } from '../../contract/connection-profile';
import type { Profile } from '../../contract/profile';
import type { FieldError } from '../../contract/profile-migrations';
import type { ConnectionProtocol } from '../../contract/text-protocol/source';
import { t } from '../../i18n/t';
import { services } from '../services';
import { CheckboxField } from './form-fields';

/** The protocol a profile's model binding will use: its Connection Manager profile's, or the current API's. */
function protocolOf(profile: Pick<Profile, 'model'>, connections: readonly ConnectionProfile[]): ConnectionProtocol | null {
    const model = profile.model;
    if (model.mode === 'current') return services().profiles.currentProtocol?.() ?? null;
    return connections.find((connection) => connection.id === model.profileId)?.protocol ?? null;
}

/**
 * A short line under the model choice saying how this agent will call tools (SPEC §9): native tool calling
 * on Chat Completion, the `<tool_call>` text protocol on Text Completion (with the grammar switch), or not
 * at all. Kept in its own file so the editor's layout can change around it.
 */
export function ProtocolNote({ profile, connections, errors, edit }: { profile: Profile; connections: readonly ConnectionProfile[]; errors: readonly FieldError[]; edit(change: (p: Profile) => void): void }) {
    const protocol = protocolOf(profile, connections);
    if (protocol === null) return null;
    const text =
        protocol === 'tool-calls'
            ? t`Chat Completion: the model calls tools natively.`
            : protocol === 'text'
              ? t`Text Completion: tools are described in the prompt and the model calls them as <tool_call> blocks, formatted with your instruct template.`
              : t`This API cannot run agents: choose a Chat Completion or Text Completion connection.`;
    return (
        <div class="tavern-agent__protocol-note" data-testid="profile-protocol" data-protocol={protocol}>
            <p class={protocol === 'none' ? 'tavern-agent__error' : 'tavern-agent__hint'}>{text}</p>
            {protocol === 'text' ? (
                <CheckboxField
                    path="textProtocol.grammar"
                    label={t`Constrain the output with a grammar (llama.cpp, KoboldCpp, Text Generation WebUI, TabbyAPI)`}
                    checked={profile.textProtocol.grammar}
                    errors={errors}
                    onValue={(value) => edit((p) => void (p.textProtocol = { grammar: value }))}
                />
            ) : null}
        </div>
    );
}
