import type { ErrorCode } from './errors';

// Errors cross the worker wall as data: comlink drops custom fields of thrown errors.
export interface ErrorInfo {
    code: string;
    message: string;
    detail?: string;
}

export type Result<T> = { ok: true; value: T } | { ok: false; error: ErrorInfo };

export function ok<T>(value: T): Result<T> {
    return { ok: true, value };
}

/** `code` is one of the contract's codes (src/contract/errors.ts), so every code in use is listed there. */
export function fail<T = never>(code: ErrorCode, message: string, detail?: string): Result<T> {
    return { ok: false, error: detail === undefined ? { code, message } : { code, message, detail } };
}

export function describeError(error: unknown): string {
    if (error instanceof Error) return `${error.name}: ${error.message}`;
    return String(error);
}
