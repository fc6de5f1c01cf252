// Preloaded by `npm run bench:no-devtools-network` (node --require): the bench's Chromium pages without
// DevTools' Network domain, as a user's browser has them.
//
// Why: Playwright enables the Network domain on every page it drives, and Chromium then copies every
// request, its body included, into the DevTools protocol. A 40 KB POST (an agent round's request: the tool
// definitions and the conversation) took 11–13 ms with it and 6–7 ms without (a bare page posting 40 KB to a
// local server, 4 launches each, medians of 50 posts); built-in tool calling sends a few KB a round and pays
// little of it. So the default bench charges the agent's round for instrumentation no user runs.
//
// How: Playwright has no switch for it, so its bundle's one `Network.enable` for a page session is skipped as
// the module is compiled (node_modules stay untouched). Without it Playwright sees no requests:
// `page.on('request')` never fires, so a figure that counts requests must say it cannot
// (`devtoolsNetworkOff()` in bench/lib/devtools-network.ts). Fails loudly when a Playwright upgrade moves the line.
'use strict';
const Module = require('node:module');
const path = require('node:path');

const BUNDLE = path.join('playwright-core', 'lib', 'coreBundle.js');
// The page session's setup in Chromium's network manager (crNetworkManager): the one call to skip.
const CALL = 'session.send("Network.enable"),\n          this._updateProtocolRequestInterceptionForSession(';
const SKIPPED = 'Promise.resolve(),\n          this._updateProtocolRequestInterceptionForSession(';

const compile = Module.prototype._compile;
Module.prototype._compile = function compileWithoutNetworkDomain(content, filename) {
    if (!filename.endsWith(BUNDLE)) return compile.call(this, content, filename);
    const at = content.indexOf(CALL);
    if (at < 0 || content.indexOf(CALL, at + 1) >= 0) {
        throw new Error(`bench/lib/no-devtools-network.cjs: Playwright's page Network.enable call was not found once in ${filename}; update the pattern for this Playwright version`);
    }
    globalThis.__benchDevtoolsNetworkOff = true;
    return compile.call(this, content.replace(CALL, SKIPPED), filename);
};
