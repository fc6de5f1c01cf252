// The card reader (issue 39 §1): a worker of its own, started for one card's skills payload and thrown away
// after. A hostile payload can only stall this worker, which the page stops at its deadline; the engine's
// worker, and any run in it, never sees the payload before Install.
import { expose } from 'comlink';
import { describeError, fail, ok, type Result } from './contract/result';
import { cardSkillsPayload, measurePayload, payloadHash, type CardReaderApi, type PayloadSource } from './contract/card-payload';
import { parseSkillPayload } from './skills/payload';
import { scanSkillPayload } from './skills/payload-scan';

/** A reader that throws is a payload this version cannot read, said as data (errors cross the wall as data). */
async function guarded<T>(read: () => Promise<Result<T>>): Promise<Result<T>> {
    try {
        return await read();
    } catch (error) {
        return fail('skill.payload_invalid', 'The skills payload could not be read.', describeError(error));
    }
}

/** The payload itself, or the card's, fetched here from SillyTavern's server (its JSON is parsed off the page). */
async function payloadOf(source: PayloadSource): Promise<Result<unknown>> {
    if ('payload' in source) return ok(source.payload);
    const response = await fetch('/api/characters/get', { method: 'POST', headers: source.card.headers, body: JSON.stringify({ avatar_url: source.card.avatar }), cache: 'no-cache' });
    if (!response.ok) return fail('skill.payload_invalid', `The card could not be read from SillyTavern (HTTP ${response.status}).`);
    const payload = cardSkillsPayload(await response.json());
    // The page measured the copy it holds; the server's is measured again before any parser sees it.
    const measured = measurePayload(payload);
    return measured.ok ? ok(payload) : measured;
}

const api: CardReaderApi = {
    scan: (source) =>
        guarded(async () => {
            const payload = await payloadOf(source);
            return payload.ok ? scanSkillPayload(payload.value) : payload;
        }),
    parse: (source) =>
        guarded(async () => {
            const read = await payloadOf(source);
            if (!read.ok) return read;
            const payload = read.value;
            const parsed = await parseSkillPayload(payload);
            if (!parsed.ok) return parsed;
            return ok({ hash: await payloadHash(payload), skills: parsed.value });
        }),
};

expose(api);
