// Module hooks for start-up-imports.test: every module a thread loads, one URL a line, in that thread's file.

import { appendFileSync } from 'node:fs';
import type { InitializeHook, LoadHook } from 'node:module';

let out = '';

export const initialize: InitializeHook<{ out: string }> = (data) => {
  out = data.out;
};

export const load: LoadHook = async (url, context, next) => {
  const loaded = await next(url, context);
  appendFileSync(out, url + '\n');
  return loaded;
};
