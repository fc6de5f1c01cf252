import { stContext } from '../sillytavern/st-context';

/**
 * Tokens of a text by SillyTavern's own tokenizer for the connection (issue 38 §1: the request's sizes);
 * null when this SillyTavern has none to offer or it fails, and the panel counts characters instead.
 */
export async function countTokens(text: string): Promise<number | null> {
    const count = stContext().getTokenCountAsync;
    if (typeof count !== 'function') return null;
    try {
        const tokens = await count(text, 0);
        return Number.isFinite(tokens) ? tokens : null;
    } catch {
        return null;
    }
}
