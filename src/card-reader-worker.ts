// The card reader (issue 39 §1): a worker of its own, started for one card's skills payload and thrown away
// after. A hostile payload can only stall this worker, which the page stops at its deadline; the engine's
// worker, and any run in it, never sees the payload before Install.
import { expose } from 'comlink';
import { describeError, fail, ok, type Result } from './contract/result';
import { payloadHash, type CardReaderApi } from './contract/card-payload';
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

const api: CardReaderApi = {
    scan: (payload) => guarded(() => scanSkillPayload(payload)),
    parse: (payload) =>
        guarded(async () => {
            const parsed = await parseSkillPayload(payload);
            if (!parsed.ok) return parsed;
            return ok({ hash: await payloadHash(payload), skills: parsed.value });
        }),
};

expose(api);
