import { useEffect, useState } from 'preact/hooks';
import type { WireMessage, WireTool } from '../../contract/model';
import { PART_KINDS, partPath, sizedText, type PartKind, type RequestPart, type RequestRef } from '../../contract/request-parts';
import { t } from '../../i18n/t';
import { services } from '../services';
import { copyText } from './run-actions';

interface LoadedRequest {
    messages: WireMessage[];
    tools: WireTool[];
    /** Size of each kind of text, and whether it is in tokens (SillyTavern's tokenizer) or characters. */
    sizes: Array<[PartKind, number]>;
    unit: 'tokens' | 'chars';
}

function kindLabel(kind: PartKind): string {
    switch (kind) {
        case 'system':
            return t`System`;
        case 'chat':
            return t`Chat`;
        case 'lore':
            return t`Lore`;
        case 'memory':
            return t`Memory`;
        case 'tool-definitions':
            return t`Tool definitions`;
        case 'tool-results':
            return t`Tool results`;
        case 'agent':
            return t`Agent turns`;
        default:
            return t`Notes`;
    }
}

/** The request's parts from the run's files, and each kind's size: one tokenizer call per kind, not per part. */
async function loadRequest(runId: string, request: RequestRef): Promise<LoadedRequest> {
    const engine = await services().engine();
    const read = async (hash: string): Promise<RequestPart> => {
        const file = await engine.readRunFile(runId, partPath(hash));
        if (!file.ok) throw new Error(file.error.message);
        return JSON.parse(file.value.content) as RequestPart;
    };
    const [parts, toolsPart] = await Promise.all([Promise.all(request.parts.map(read)), read(request.tools)]);
    const tools = 'tools' in toolsPart ? toolsPart.tools : [];
    const texts = new Map<PartKind, string[]>();
    const add = (kind: PartKind, text: string) => texts.set(kind, [...(texts.get(kind) ?? []), text]);
    const messages: WireMessage[] = [];
    for (const part of parts) {
        if (!('message' in part)) continue;
        messages.push(part.message);
        const text = sizedText(part.message);
        for (const [kind, from, to] of part.pieces) add(kind, text.slice(from, to));
    }
    if (tools.length) add('tool-definitions', JSON.stringify(tools));
    const count = services().chat.countTokens;
    let unit: LoadedRequest['unit'] = 'tokens';
    const sizes: Array<[PartKind, number]> = [];
    for (const kind of PART_KINDS) {
        const joined = texts.get(kind)?.join('\n');
        if (joined === undefined) continue;
        const tokens = unit === 'tokens' && count ? await count(joined) : null;
        if (tokens === null) unit = 'chars';
        sizes.push([kind, tokens ?? joined.length]);
    }
    // One unit for all: where the tokenizer gave up part-way, every size is in characters.
    if (unit === 'chars') for (const size of sizes) size[1] = texts.get(size[0])!.join('\n').length;
    return { messages, tools, sizes, unit };
}

function RequestBody({ loaded }: { loaded: LoadedRequest }) {
    const total = loaded.sizes.reduce((sum, [, size]) => sum + size, 0);
    const unit = loaded.unit === 'tokens' ? t`tokens` : t`characters`;
    return (
        <>
            <table class="tavern-agent__request-sizes" data-testid="request-sizes" data-unit={loaded.unit} data-total={String(total)}>
                <tbody>
                    {loaded.sizes.map(([kind, size]) => (
                        <tr data-part-kind={kind} data-size={String(size)}>
                            <th scope="row">{kindLabel(kind)}</th>
                            <td>{size.toLocaleString()}</td>
                        </tr>
                    ))}
                    <tr class="tavern-agent__request-total">
                        <th scope="row">{t`Total`}</th>
                        <td>
                            {total.toLocaleString()} {unit}
                        </td>
                    </tr>
                </tbody>
            </table>
            <div class="tavern-agent__toolbar">
                <button type="button" class="menu_button tavern-agent__button" data-action="copy-request" onClick={() => void copyText(JSON.stringify({ messages: loaded.messages, tools: loaded.tools }, null, 2))}>
                    <span class="fa-solid fa-copy" aria-hidden="true" /> {t`Copy`}
                </button>
            </div>
            <ol class="tavern-agent__request-messages" data-testid="request-messages">
                {loaded.messages.map((message) => (
                    <li data-role={message.role}>
                        <code class="tavern-agent__code">{message.role}</code>
                        <pre class="tavern-agent__text">{sizedText(message)}</pre>
                    </li>
                ))}
            </ol>
            <details class="tavern-agent__request-tools" data-testid="request-tools">
                <summary>
                    {t`Tool definitions`} ({loaded.tools.length})
                </summary>
                <ul>
                    {loaded.tools.map((tool) => (
                        <li data-tool={tool.function.name}>
                            <code class="tavern-agent__code">{tool.function.name}</code>
                            <pre class="tavern-agent__text">{JSON.stringify(tool.function.parameters, null, 1)}</pre>
                        </li>
                    ))}
                </ul>
            </details>
        </>
    );
}

/**
 * *Request*: what the model was sent for this turn (issue 38 §1), in order, with the size of each kind of
 * text and a Copy button. Read from the run's stored parts only once opened.
 */
export function RequestView({ runId, request }: { runId: string; request: RequestRef }) {
    const [open, setOpen] = useState(false);
    const [loaded, setLoaded] = useState<LoadedRequest | { error: string } | null>(null);
    useEffect(() => {
        if (!open || loaded) return;
        let live = true;
        loadRequest(runId, request).then(
            (value) => live && setLoaded(value),
            (error: unknown) => live && setLoaded({ error: error instanceof Error ? error.message : String(error) }),
        );
        return () => {
            live = false;
        };
    }, [open, runId, request]);
    return (
        <details class="tavern-agent__request" data-testid="model-request" onToggle={(event) => setOpen((event.currentTarget as HTMLDetailsElement).open)}>
            <summary>{t`Request`}</summary>
            {!open ? null : loaded === null ? (
                <p class="tavern-agent__muted">{t`Loading…`}</p>
            ) : 'error' in loaded ? (
                <p class="tavern-agent__error">{loaded.error}</p>
            ) : (
                <RequestBody loaded={loaded} />
            )}
        </details>
    );
}
