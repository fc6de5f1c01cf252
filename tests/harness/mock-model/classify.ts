// Which provider dialect and kind of request an incoming HTTP request is.
import type { Dialect } from './types';

export interface Classified {
  dialect: Dialect | null;
  kind: 'generate' | 'models' | 'other';
  stream: boolean;
  /** Gemini only: model id from the path. */
  pathModel?: string;
  /** Gemini only: ':streamGenerateContent' without alt=sse answers a JSON array instead of SSE. */
  sse: boolean;
}

/**
 * - POST …/chat/completions → openai; POST …/messages → claude; POST …/models/<m>:generateContent|streamGenerateContent → gemini.
 * - GET …/models → gemini if the path ends in /v1beta/models or /v1alpha/models or has a `key`/`pageSize` query,
 *   claude if `anthropic-version`/`x-api-key` headers, else openai.
 */
export function classify(method: string, url: URL, headers: Record<string, string>, body: any): Classified {
  const path = url.pathname.replace(/\/+$/, '');
  if (method === 'POST') {
    if (path.endsWith('/chat/completions')) return { dialect: 'openai', kind: 'generate', stream: body?.stream === true, sse: true };
    if (path.endsWith('/messages')) return { dialect: 'claude', kind: 'generate', stream: body?.stream === true, sse: true };
    const g = /\/models\/([^/]+):(generateContent|streamGenerateContent)$/.exec(path);
    if (g) {
      const stream = g[2] === 'streamGenerateContent';
      return { dialect: 'gemini', kind: 'generate', stream, sse: !stream || url.searchParams.get('alt') === 'sse', pathModel: decodeURIComponent(g[1] ?? '') };
    }
    return { dialect: null, kind: 'other', stream: false, sse: true };
  }
  if (method === 'GET' && (path.endsWith('/models') || path === '/models')) {
    let dialect: Dialect = 'openai';
    if (/\/v1(beta|alpha)\/models$/.test(path) || url.searchParams.has('key') || url.searchParams.has('pageSize')) dialect = 'gemini';
    else if (headers['anthropic-version'] || headers['x-api-key']) dialect = 'claude';
    return { dialect, kind: 'models', stream: false, sse: true };
  }
  return { dialect: null, kind: 'other', stream: false, sse: true };
}
