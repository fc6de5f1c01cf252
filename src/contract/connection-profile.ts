/** A SillyTavern Connection Manager profile, as far as Tavern Agent needs it (the host reads them, the panel lists them). */
export interface ConnectionProfile {
    id: string;
    name: string;
    api: string;
    model: string;
    /** How agents on this connection call tools (SPEC §9); filled by the host. */
    protocol?: 'tool-calls' | 'text' | 'none';
}
