import { wrap, type Remote } from 'comlink';
import { fail, type Result } from '../../contract/result';
import { measurePayload, PAYLOAD_LIMITS, type CardReaderApi, type PayloadSource } from '../../contract/card-payload';
import { stContext } from '../sillytavern/st-context';
import { t } from '../../i18n/t';
import type { OwnerPayload } from './embedded-owners';
import { distFile } from '../worker/dist-files';

/**
 * Reads a card's or preset's skills payload in a worker of its own (dist/card-reader.js), started for this
 * one job and terminated after it, or at its deadline (issue 39 §1). The page only walks the payload's
 * sizes within fixed bounds first; a payload over them never leaves the page. A card's payload the reader
 * fetches from the server itself, so the page never copies it.
 */
async function inReader<T>(owner: OwnerPayload, deadlineMs: number, job: (reader: Remote<CardReaderApi>, source: PayloadSource) => Promise<Result<T>>): Promise<Result<T>> {
    const measured = measurePayload(owner.payload);
    if (!measured.ok) return measured;
    const worker = new Worker(distFile('card-reader.js'), { type: 'module', name: 'tavern-agent-card-reader' });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<Result<T>>((resolve) => {
        timer = setTimeout(
            () => resolve(fail('skill.payload_timeout', `${t`Reading the card's skills took too long, so it was stopped; nothing of them was kept.`} (${deadlineMs / 1000} s)`)),
            deadlineMs,
        );
    });
    const crashed = new Promise<Result<T>>((resolve) => {
        worker.addEventListener('error', (event) => resolve(fail('skill.payload_invalid', `${t`The card's skills could not be read:`} ${event.message || t`the reader stopped`}.`)));
    });
    try {
        const source: PayloadSource = owner.kind === 'card' ? { card: { avatar: owner.owner, headers: stContext().getRequestHeaders() } } : { payload: owner.payload };
        return await Promise.race([job(wrap<CardReaderApi>(worker), source), deadline, crashed]);
    } finally {
        clearTimeout(timer);
        worker.terminate();
    }
}

/** Reads the embedded payload of a card or preset; the card's is fetched by the reader itself. */
export interface CardReader {
    scan(owner: OwnerPayload): ReturnType<CardReaderApi['scan']>;
    parse(owner: OwnerPayload): ReturnType<CardReaderApi['parse']>;
}

export const cardReader: CardReader = {
    scan: (owner) => inReader(owner, PAYLOAD_LIMITS.scanMs, (reader, source) => reader.scan(source)),
    parse: (owner) => inReader(owner, PAYLOAD_LIMITS.parseMs, (reader, source) => reader.parse(source)),
};
