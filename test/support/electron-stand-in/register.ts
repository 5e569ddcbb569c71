// `node --import` this file: the specifier 'electron' then loads the stand-in beside it instead of Electron's npm
// package (which a packaged app does not carry, and which in plain Node would only name a binary).
import { registerHooks } from 'node:module';

const standIn = new URL('./electron.ts', import.meta.url).href;

registerHooks({
  resolve(specifier, context, nextResolve) {
    return specifier === 'electron' ? { url: standIn, shortCircuit: true } : nextResolve(specifier, context);
  },
});
