import { wrap, type Remote } from 'comlink';
import { fail, type Result } from '../../contract/result';
import { measurePayload, PAYLOAD_LIMITS, type CardReaderApi } from '../../contract/card-payload';
import { distFile } from '../worker/dist-files';

/**
 * Reads a card's or preset's skills payload in a worker of its own (dist/card-reader.js), started for this
 * one job and terminated after it, or at its deadline (issue 39 §1). The page only walks the payload's
 * sizes within fixed bounds before handing it over; a payload over them never leaves the page.
 */
async function inReader<T>(payload: unknown, deadlineMs: number, job: (reader: Remote<CardReaderApi>) => Promise<Result<T>>): Promise<Result<T>> {
    const measured = measurePayload(payload);
    if (!measured.ok) return measured;
    const worker = new Worker(distFile('card-reader.js'), { type: 'module', name: 'tavern-agent-card-reader' });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<Result<T>>((resolve) => {
        timer = setTimeout(
            () => resolve(fail('skill.payload_timeout', `Reading the card's skills took longer than ${deadlineMs / 1000} s, so it was stopped; nothing of them was kept.`)),
            deadlineMs,
        );
    });
    const crashed = new Promise<Result<T>>((resolve) => {
        worker.addEventListener('error', (event) => resolve(fail('skill.payload_invalid', `The card's skills could not be read: ${event.message || 'the reader stopped'}.`)));
    });
    try {
        return await Promise.race([job(wrap<CardReaderApi>(worker)), deadline, crashed]);
    } finally {
        clearTimeout(timer);
        worker.terminate();
    }
}

export interface CardReader {
    scan(payload: unknown): ReturnType<CardReaderApi['scan']>;
    parse(payload: unknown): ReturnType<CardReaderApi['parse']>;
}

export const cardReader: CardReader = {
    scan: (payload) => inReader(payload, PAYLOAD_LIMITS.scanMs, (reader) => reader.scan(payload)),
    parse: (payload) => inReader(payload, PAYLOAD_LIMITS.parseMs, (reader) => reader.parse(payload)),
};
