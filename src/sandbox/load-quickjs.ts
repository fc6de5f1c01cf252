import variant from '@jitl/quickjs-wasmfile-release-sync';
import { newQuickJSWASMModuleFromVariant, newVariant, type QuickJSWASMModule } from 'quickjs-emscripten-core';

let loading: Promise<QuickJSWASMModule> | null = null;

/**
 * QuickJS compiled to WebAssembly (the release build without asyncify: a program's tool calls are host
 * promises the runner settles between job-queue turns). Loaded once per sandbox worker; `wasmUrl` is
 * dist/quickjs.wasm in the browser, absent in node (the package's own file).
 */
export function loadQuickJs(wasmUrl?: string): Promise<QuickJSWASMModule> {
    loading ??= newQuickJSWASMModuleFromVariant(wasmUrl ? newVariant(variant, { wasmLocation: wasmUrl }) : variant).catch((error: unknown) => {
        loading = null;
        throw error;
    });
    return loading;
}
